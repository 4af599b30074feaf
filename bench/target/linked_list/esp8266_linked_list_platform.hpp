// SPDX-License-Identifier: MIT
// esp8266_linked_list_platform.hpp, lx106 target: what bench/baselines/
// esp8266_linked_list.cpp needs from its platform. interrupt_lock is the
// port's interrupt mask (on lx106 the ESP8266 core's xt_rsil(15)), cycles()
// is CCOUNT, whose rate is the board clock. Included by that file only.
#pragma once

#include <kairos/port.hpp>

#include <cstdint>

#include "lx106.hpp"

#ifndef KAIROS_QEMU_TIMER_HZ
#  error "KAIROS_QEMU_TIMER_HZ: rate of the board timer in the QEMU model (cmake/qemu-test.cmake)"
#endif

namespace baseline {
namespace {

// interrupt_lock masks interrupts for its scope, the previous level restored.
class interrupt_lock {
public:
    interrupt_lock() noexcept : saved_(kairos::port::irq_disable()) {}
    ~interrupt_lock() { kairos::port::irq_restore(saved_); }

private:
    kairos::port::irq_state saved_;
};

std::uint64_t cycles() noexcept { return kairos::lx106::cycles(); }
std::uint64_t cycles_per_us() noexcept { return KAIROS_QEMU_TIMER_HZ / 1000000u; }

}  // namespace
}  // namespace baseline

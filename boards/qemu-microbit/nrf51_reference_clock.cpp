// SPDX-License-Identifier: MIT
// The tests' reference clock (ktarget::reference_ns(), tests/target/
// target.hpp) on the nRF51's TIMER1 (0x40009000; the board timer is
// TIMER0): timer mode, 32 bits, prescaler 0, so it counts the 16 MHz clock
// (62.5 ns), read by a capture task into CC[0]. QEMU's model
// (hw/timer/nrf51_timer.c) derives the count from its virtual clock at each
// capture; the port never touches this instance. Started by the first read.
#include "target.hpp"

#include <cstdint>

namespace {

constexpr std::uintptr_t base = 0x40009000;

volatile std::uint32_t& at(std::uintptr_t off) noexcept {
    return *reinterpret_cast<volatile std::uint32_t*>(base + off);
}

bool started = false;

}  // namespace

bool ktarget::reference_ns(std::uint64_t& ns) noexcept {
    if (!started) {
        at(0x504) = 0;  // MODE: timer
        at(0x508) = 3;  // BITMODE: 32 bits
        at(0x510) = 0;  // PRESCALER: 16 MHz
        at(0x00C) = 1;  // TASKS_CLEAR
        at(0x000) = 1;  // TASKS_START
        started = true;
    }
    at(0x040) = 1;  // TASKS_CAPTURE[0]
    ns = (std::uint64_t{at(0x540)} * 125u) >> 1;  // 62.5 ns per count
    return true;
}

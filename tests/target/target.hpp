// SPDX-License-Identifier: MIT
// target.hpp: what the on-target tests and benchmarks need from the board
// beyond port.hpp and board.hpp: a periodic test interrupt, and printing of
// numbers without a C library (and without run-time division, which lx106's
// libgcc lacks).
#pragma once

#include <kairos/board.hpp>  // kairos_port_exit(): the board's (QEMU: semihosting)
#include <kairos/detail/decimal.hpp>
#include <kairos/port.hpp>

#include <cstdint>

namespace ktarget {

// periodic_irq_start(period_us, fn) makes a timer interrupt call fn() every
// period_us microseconds (Cortex-M: SysTick through the port's tick hook);
// periodic_irq_stop() stops calling fn. Defined by the board's startup.
void periodic_irq_start(std::uint32_t period_us, void (*fn)()) noexcept;
void periodic_irq_stop() noexcept;

// reference_ns(ns) reads the board's reference clock into ns and returns
// true: a counter of the QEMU machine, in nanoseconds since an arbitrary
// origin, that runs on QEMU's virtual clock and that neither the port nor
// the board's time base (board.hpp, "Board timer") uses, so that the
// port's time across idle can be checked against it (tests/target/
// idle_target.cpp). It counts whole nanoseconds of its own rate (mps2
// FPGAIO: 40 ns at 25 MHz) and does not wrap within the first minute after
// reset. False: the machine has no such clock. Defined by the board's
// source that kairos_board_reference_clock() names (cmake/board.cmake).
// Context: thread.
bool reference_ns(std::uint64_t& ns) noexcept;

inline void print(const char* s) noexcept { kairos::port::console_write(s); }

// print_u64(v) prints v in decimal (kairos::detail::put_decimal: no
// division, which lx106's libgcc lacks).
inline void print_u64(std::uint64_t v) noexcept {
    char buf[21];
    *kairos::detail::put_decimal(buf, v) = '\0';
    print(buf);
}

}  // namespace ktarget

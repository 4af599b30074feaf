// SPDX-License-Identifier: MIT
// The board timer (include/kairos/board.hpp, "Board timer") on an SSE-300
// system timer (Arm SSE-123 Example Subsystem TRM, "System timer") at
// KAIROS_BOARD_TIMER_BASE, interrupt KAIROS_BOARD_TIMER_IRQ (board.cmake:
// timer 1 at its secure alias; timer 0's interrupt, 3, is the tests'). It
// compares against the SSE-300's system counter, which counts MAINCLK, the
// core's 32 MHz, unscaled:
//   CNTPCT  the counter (its low word is the board timer's count)
//   CNTP_CVAL  the alarm: the interrupt is asserted while the counter is
//           at or past CVAL and CNTP_CTL.IMASK is clear
// Why this and not SysTick: the counter never reloads, so re-arming the
// alarm loses no time, and 2^32 counts are 134 s where SysTick's 24 bits
// are 0.52 s.
#include "cortex_m.hpp"

#include <kairos/board.hpp>

#include <cstdint>

#if !defined(KAIROS_BOARD_TIMER_BASE) || !defined(KAIROS_BOARD_TIMER_IRQ)
#  error "KAIROS_BOARD_TIMER_BASE, KAIROS_BOARD_TIMER_IRQ: set by the board's board.cmake"
#endif

namespace {

namespace reg = kairos::cortex_m::reg;

constexpr std::uintptr_t counter_cntcr = 0x58100000;  // system counter control frame (secure only)
constexpr std::uintptr_t cntpct_lo = KAIROS_BOARD_TIMER_BASE + 0x00;
constexpr std::uintptr_t cntpct_hi = KAIROS_BOARD_TIMER_BASE + 0x04;
constexpr std::uintptr_t cntp_cval_lo = KAIROS_BOARD_TIMER_BASE + 0x20;
constexpr std::uintptr_t cntp_cval_hi = KAIROS_BOARD_TIMER_BASE + 0x24;
constexpr std::uintptr_t cntp_ctl = KAIROS_BOARD_TIMER_BASE + 0x2C;
constexpr std::uint32_t ctl_enable = 1u << 0, ctl_imask = 1u << 1;

constexpr unsigned irq = KAIROS_BOARD_TIMER_IRQ;

}  // namespace

extern "C" {

void kairos_board_timer_start() noexcept {
    reg::at(counter_cntcr) = 1;  // EN, no scaling
    reg::at(cntp_ctl) = ctl_enable | ctl_imask;
    kairos::cortex_m::set_irq_priority(irq, 0xFF);
    reg::at(reg::nvic_icpr) = 1u << irq;
    reg::at(reg::nvic_iser) = 1u << irq;
}

std::uint32_t kairos_board_timer_count() noexcept { return reg::at(cntpct_lo); }

// The alarm is masked (its interrupt deasserted) and cleared from the NVIC
// while CVAL is set to the counter read here plus delta, rounded up to a
// multiple of 4 counts: never earlier than `delta` counts after the call.
// Unmasking then asserts it at once if the counter is already there. Why
// the multiple of 4: QEMU's model schedules the compare at the count's
// time in whole nanoseconds, rounded down, and 4 counts of 31.25 ns are
// the shortest whole number; at any other count the timer fired before
// the counter reached CVAL and re-armed itself for the same instant,
// forever (docs/targets.md, "Tickless idle"). Harmless on hardware.
void kairos_board_timer_alarm(std::uint32_t delta) noexcept {
    reg::at(cntp_ctl) = ctl_enable | ctl_imask;
    reg::at(reg::nvic_icpr) = 1u << irq;
    std::uint32_t hi = reg::at(cntpct_hi);
    std::uint32_t lo = reg::at(cntpct_lo);
    const std::uint32_t hi2 = reg::at(cntpct_hi);
    if (hi2 != hi) {  // the low word wrapped between the reads
        hi = hi2;
        lo = reg::at(cntpct_lo);
    }
    const std::uint64_t at = ((((std::uint64_t{hi} << 32) | lo) + delta) + 3u) & ~std::uint64_t{3};
    reg::at(cntp_cval_hi) = static_cast<std::uint32_t>(at >> 32);
    reg::at(cntp_cval_lo) = static_cast<std::uint32_t>(at);
    reg::at(cntp_ctl) = ctl_enable;
}

// kairos_board_timer_isr() is the alarm's handler (the startup's vector
// table holds it at KAIROS_BOARD_TIMER_IRQ): masking deasserts it.
void kairos_board_timer_isr() noexcept {
    reg::at(cntp_ctl) = ctl_enable | ctl_imask;
    kairos_board_timer_tick();
}

}  // extern "C"

// SPDX-License-Identifier: MIT
// The board timer (include/kairos/board.hpp, "Board timer") on the CMSDK
// APB dual timer (ARM DDI0479C) of the QEMU mps2 and SSE-200 models, at
// KAIROS_BOARD_TIMER_BASE, combined interrupt KAIROS_BOARD_TIMER_IRQ
// (the board's board.cmake sets both). Both timers count TIMCLK, which
// these models clock at the core clock:
//   timer 1  free-running, 32 bits, no interrupt: the counter (it counts
//            down; its complement counts up)
//   timer 2  one-shot, 32 bits, interrupt: the alarm
// Why this and not SysTick: the counter never reloads, so re-arming the
// alarm loses no time, and 2^32 counts at tens of MHz are minutes, where
// SysTick's 24 bits are under a second. Under QEMU's instruction clock
// (-icount sleep=off) a wait the dual timer ends also lasts what it was
// programmed for, where a SysTick-timed WFI lasts a period longer
// (docs/targets.md, "Tickless idle").
#include "cortex_m.hpp"

#include <kairos/board.hpp>

#include <cstdint>

#if !defined(KAIROS_BOARD_TIMER_BASE) || !defined(KAIROS_BOARD_TIMER_IRQ)
#  error "KAIROS_BOARD_TIMER_BASE, KAIROS_BOARD_TIMER_IRQ: set by the board's board.cmake"
#endif

namespace {

namespace reg = kairos::cortex_m::reg;

// Registers: timer 1 at +0x00, timer 2 at +0x20.
constexpr std::uintptr_t t1_value = KAIROS_BOARD_TIMER_BASE + 0x04;
constexpr std::uintptr_t t1_control = KAIROS_BOARD_TIMER_BASE + 0x08;
constexpr std::uintptr_t t2_load = KAIROS_BOARD_TIMER_BASE + 0x20;
constexpr std::uintptr_t t2_control = KAIROS_BOARD_TIMER_BASE + 0x28;
constexpr std::uintptr_t t2_intclr = KAIROS_BOARD_TIMER_BASE + 0x2C;
// CONTROL: ONESHOT (bit 0), SIZE 32 bits (1), PRESCALE 1 (bits 2-3 = 0),
// INTEN (5), MODE periodic (6; 0: free-running), ENABLE (7).
constexpr std::uint32_t oneshot = 1u << 0, size32 = 1u << 1, inten = 1u << 5, periodic = 1u << 6,
                        enable = 1u << 7;
constexpr std::uint32_t alarm_off = oneshot | size32 | inten | periodic;

constexpr unsigned irq = KAIROS_BOARD_TIMER_IRQ;

}  // namespace

extern "C" {

void kairos_board_timer_start() noexcept {
    reg::at(t2_control) = alarm_off;
    reg::at(t2_intclr) = 1;
    reg::at(t1_control) = size32 | enable;  // free-running from 0xFFFFFFFF
    kairos::cortex_m::set_irq_priority(irq, 0xFF);
    reg::at(reg::nvic_icpr + 4 * (irq / 32)) = 1u << (irq % 32);
    reg::at(reg::nvic_iser + 4 * (irq / 32)) = 1u << (irq % 32);
}

std::uint32_t kairos_board_timer_count() noexcept { return ~reg::at(t1_value); }

// An alarm a previous arming raised is cleared first, at the timer and in
// the NVIC (the handler would otherwise run once more for nothing), while
// timer 2 is stopped. A LOAD write sets the count; the ENABLE write after
// it starts the count down, so the alarm comes `delta` counts after that
// write at the earliest.
void kairos_board_timer_alarm(std::uint32_t delta) noexcept {
    reg::at(t2_control) = alarm_off;
    reg::at(t2_intclr) = 1;
    reg::at(reg::nvic_icpr + 4 * (irq / 32)) = 1u << (irq % 32);
    reg::at(t2_load) = delta;
    reg::at(t2_control) = alarm_off | enable;
}

// kairos_board_timer_isr() is the alarm's handler (the startup's vector
// table holds it at KAIROS_BOARD_TIMER_IRQ).
void kairos_board_timer_isr() noexcept {
    reg::at(t2_intclr) = 1;
    kairos_board_timer_tick();
}

}  // extern "C"

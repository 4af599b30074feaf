// SPDX-License-Identifier: MIT
// The board timer (include/kairos/board.hpp, "Board timer") on an nRF51
// TIMER (nRF51 Reference Manual v3.0, chapter 18) at KAIROS_BOARD_TIMER_BASE,
// interrupt KAIROS_BOARD_TIMER_IRQ (board.cmake: TIMER0): timer mode,
// 32 bits, prescaler 0, so it counts the 16 MHz clock, the core's rate:
//   CC[0]  the counter, read by a capture task
//   CC[1]  the alarm: COMPARE[1] raises the interrupt
// Why this and not SysTick: the counter never reloads, so re-arming the
// alarm loses no time, and 2^32 counts are 268 s where SysTick's 24 bits
// are 1.05 s.
#include "cortex_m.hpp"

#include <kairos/board.hpp>

#include <cstdint>

#if !defined(KAIROS_BOARD_TIMER_BASE) || !defined(KAIROS_BOARD_TIMER_IRQ)
#  error "KAIROS_BOARD_TIMER_BASE, KAIROS_BOARD_TIMER_IRQ: set by the board's board.cmake"
#endif

namespace {

namespace reg = kairos::cortex_m::reg;

constexpr std::uintptr_t base = KAIROS_BOARD_TIMER_BASE;
constexpr std::uintptr_t tasks_start = base + 0x000;
constexpr std::uintptr_t tasks_clear = base + 0x00C;
constexpr std::uintptr_t tasks_capture0 = base + 0x040;
constexpr std::uintptr_t events_compare1 = base + 0x144;
constexpr std::uintptr_t intenset = base + 0x304;
constexpr std::uintptr_t mode = base + 0x504;
constexpr std::uintptr_t bitmode = base + 0x508;
constexpr std::uintptr_t prescaler = base + 0x510;
constexpr std::uintptr_t cc0 = base + 0x540;
constexpr std::uintptr_t cc1 = base + 0x544;
constexpr std::uint32_t inten_compare1 = 1u << 17;

constexpr unsigned irq = KAIROS_BOARD_TIMER_IRQ;

std::uint32_t capture() noexcept {
    reg::at(tasks_capture0) = 1;
    return reg::at(cc0);
}

}  // namespace

extern "C" {

void kairos_board_timer_start() noexcept {
    reg::at(mode) = 0;       // timer
    reg::at(bitmode) = 3;    // 32 bits
    reg::at(prescaler) = 0;  // 16 MHz
    reg::at(cc1) = 0x80000000u;  // no match until the first alarm: the counter starts at 0
    reg::at(events_compare1) = 0;
    reg::at(intenset) = inten_compare1;
    reg::at(tasks_clear) = 1;
    reg::at(tasks_start) = 1;
    kairos::cortex_m::set_irq_priority(irq, 0xFF);
    reg::at(reg::nvic_icpr) = 1u << irq;
    reg::at(reg::nvic_iser) = 1u << irq;
}

std::uint32_t kairos_board_timer_count() noexcept { return capture(); }

// The compare is absolute: CC[1] = the counter now + delta, from a capture
// taken inside this call, so never earlier than `delta` counts after the
// call. The event of a previous arming is cleared after CC[1] holds the new
// value (at the timer and in the NVIC): QEMU's model (hw/timer/
// nrf51_timer.c) re-raises COMPARE[1] at any access that finds the counter
// equal to CC[1], as it is right after the previous alarm, so a clear
// before the write could leave that alarm raised again. A match of the new
// value before the clear is caught below: should the counter already have
// passed CC[1] with no event (a delta shorter than the accesses take), the
// interrupt is pended by hand rather than waiting for the next match, 2^32
// counts later.
void kairos_board_timer_alarm(std::uint32_t delta) noexcept {
    const std::uint32_t at = capture() + delta;
    reg::at(cc1) = at;
    reg::at(events_compare1) = 0;
    reg::at(reg::nvic_icpr) = 1u << irq;
    if (static_cast<std::int32_t>(capture() - at) >= 0 && reg::at(events_compare1) == 0) {
        reg::at(reg::nvic_ispr) = 1u << irq;
    }
}

// kairos_board_timer_isr() is the alarm's handler (the startup's vector
// table holds it at KAIROS_BOARD_TIMER_IRQ).
void kairos_board_timer_isr() noexcept {
    reg::at(events_compare1) = 0;
    kairos_board_timer_tick();
}

}  // extern "C"

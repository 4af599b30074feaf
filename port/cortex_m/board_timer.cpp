// SPDX-License-Identifier: MIT
// The Cortex-M time base and tick on a board timer (kairos/board.hpp,
// "Board timer"): a free-running counter the port extends to 64 bits and
// a one-shot alarm for the next event (the periodic tick while it is
// needed, else the kernel's idle deadline, at least every max_alarm counts
// for the wrap). Linked only when the board's alarm handler calls
// kairos_board_timer_tick(); its strong definitions of cycles(),
// systick_start(), need_tick(), idle_program() and timer_interrupts() then
// replace port.cpp's weak SysTick ones (time_shared.hpp), and SysTick is
// never started.
#include "cortex_m.hpp"
#include "time_shared.hpp"

#include <kairos/board.hpp>
#include <kairos/detail/trace_hook.hpp>
#include <kairos/port.hpp>

#include <cstdint>

namespace {

using kairos::cortex_m::detail::core_clock;
using kairos::cortex_m::detail::idle_until;
using kairos::cortex_m::detail::periodic;
using kairos::cortex_m::detail::tick_fn;
using kairos::cortex_m::detail::tick_period;
using kairos::cortex_m::detail::tickers;

// The extended counter and the alarm's schedule:
//   hi       counts of the counter's completed wraps (a multiple of 2^32)
//   last     the counter at the last read: a smaller read is a wrap
//   tick_at  the next periodic tick, in counts (while periodic())
//   ticking  the armed alarm is the periodic tick's
//   irqs     alarm interrupts taken: port::timer_interrupts()
// A read at least every 2^32 counts sees every wrap: the alarm is never
// armed further than max_alarm ahead, and its handler reads the counter.
struct board_timer_state {
    std::uint64_t hi = 0;
    std::uint32_t last = 0;
    bool ticking = false;
    std::uint64_t tick_at = 0;
    volatile std::uint32_t irqs = 0;
};
board_timer_state bt;
constexpr std::uint64_t max_alarm = std::uint64_t{1} << 31;
// min_alarm: the soonest the port arms the alarm (a deadline already due
// still waits this long), so that the handler's own work is done first.
constexpr std::uint64_t min_alarm = 16;

// count_locked() returns counts since the board timer started. Masked.
std::uint64_t count_locked() noexcept {
    const std::uint32_t c = kairos_board_timer_count();
    if (c < bt.last) bt.hi = bt.hi + (std::uint64_t{1} << 32);
    bt.last = c;
    return bt.hi + c;
}

// arm(now) arms the alarm for what comes next: the periodic tick if it is
// needed, else idle_until (UINT64_MAX: only the wrap), from min_alarm to
// max_alarm counts after now. Masked.
void arm(std::uint64_t now) noexcept {
    bt.ticking = periodic();
    const std::uint64_t at = bt.ticking ? bt.tick_at : idle_until;
    const std::uint64_t d = at > now + min_alarm ? at - now : min_alarm;
    kairos_board_timer_alarm(static_cast<std::uint32_t>(d < max_alarm ? d : max_alarm));
}

}  // namespace

namespace kairos::port {
std::uint32_t timer_interrupts() noexcept { return bt.irqs; }
}  // namespace kairos::port

namespace kairos::cortex_m {

// The first call starts the board timer (with no idle deadline yet).
void systick_start(std::uint32_t period_cycles) noexcept {
    const port::irq_state s = port::irq_disable();
    if (tick_period == 0) {
        kairos_board_timer_start();
        bt.last = kairos_board_timer_count();
        idle_until = UINT64_MAX;
    }
    const std::uint64_t now = count_locked();
    tick_period = period_cycles;
    bt.tick_at = now + period_cycles;
    arm(now);
    port::irq_restore(s);
}

// From a tickless alarm the tick starts one period from now; a tick that
// runs keeps its phase (tickers count on it).
void need_tick() noexcept {
    const port::irq_state s = port::irq_disable();
    if (tick_period != 0 && !bt.ticking && periodic()) {
        const std::uint64_t now = count_locked();
        bt.tick_at = now + tick_period;
        arm(now);
    }
    port::irq_restore(s);
}

void idle_program(std::uint64_t deadline_us) noexcept {
    if (periodic()) return;
    idle_until = kairos::mcu::to_ticks(deadline_us, core_clock.per_us);
    arm(count_locked());
}

std::uint64_t cycles() noexcept {
    if (tick_period == 0) {
        core_clock.require();
        systick_start(core_clock.hz / 1000u);
    }
    const port::irq_state s = port::irq_disable();
    const std::uint64_t c = count_locked();
    port::irq_restore(s);
    return c;
}

}  // namespace kairos::cortex_m

// kairos_board_timer_tick() is kairos_tick() for the board timer's alarm
// (board.hpp): the time base needs no accounting (the counter runs on),
// only the next alarm. The periodic tick's schedule advances by whole
// periods (from now, if the handler is a period late); a due idle
// deadline is spent. An alarm that is not the periodic tick's (the
// kernel's idle deadline, the wrap guard) has nothing to call: no ticker
// is armed, no tick hook set and no slice checked (each would make the
// tick periodic), so it re-arms in the same masked section, with the one
// counter read: that is an idle kernel's wake-up path. Masked around the
// time base and the alarm: an interrupt above the alarm's priority may
// read the time meanwhile.
extern "C" void kairos_board_timer_tick() noexcept {
    bt.irqs = bt.irqs + 1;
    std::uint32_t ipsr;
    asm volatile("mrs %0, ipsr" : "=r"(ipsr));
    KAIROS_TRACE_ISR_ENTER(ipsr & 0x1FFu);
    kairos::port::irq_state s = kairos::port::irq_disable();
    std::uint64_t now = count_locked();
    if (idle_until <= now) idle_until = UINT64_MAX;
    if (!bt.ticking && !periodic()) {
        arm(now);
        kairos::port::irq_restore(s);
        KAIROS_TRACE_ISR_EXIT(ipsr & 0x1FFu);
        return;
    }
    if (bt.ticking) {
        bt.tick_at = bt.tick_at + tick_period;
        if (bt.tick_at <= now + min_alarm) bt.tick_at = now + tick_period;
    }
    kairos::port::irq_restore(s);
    if (kairos_mcu_ticker_tick != nullptr) tickers = kairos_mcu_ticker_tick();
    if (const kairos::cortex_m::tick_hook f = tick_fn) f();
    KAIROS_SCHED_TICK(kairos_slice_ticking);  // time slicing, when compiled in
    s = kairos::port::irq_disable();
    now = count_locked();
    if (!bt.ticking && periodic()) bt.tick_at = now + tick_period;
    arm(now);
    kairos::port::irq_restore(s);
    KAIROS_TRACE_ISR_EXIT(ipsr & 0x1FFu);
}

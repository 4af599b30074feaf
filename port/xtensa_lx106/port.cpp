// SPDX-License-Identifier: MIT
// Xtensa lx106 (ESP8266) port: interrupt lock on PS.INTLEVEL (rsil/wsr),
// ISR detection, CCOUNT time base and CCOMPARE0 tick, the level-1
// interrupt dispatch and the thread half of the context switch (the switch
// itself: switch.S). Only what the core defines: console, exit, vectors,
// startup and the clock rate are the board's (boards/,
// include/kairos/board.hpp).
#include "lx106.hpp"

#include <kairos/bits.hpp>
#include <kairos/config.hpp>
#include <kairos/board.hpp>
#include <kairos/detail/time_slice_hook.hpp>
#include <kairos/detail/trace_hook.hpp>
#include <kairos/port.hpp>

#include "../mcu_common/core_clock.hpp"

// kairos_lx106_soft_hook is set_soft_irq_hook()'s function; switch.S reads it
// too (to skip the C dispatch when there is none).
extern "C" kairos::lx106::irq_hook volatile kairos_lx106_soft_hook;
kairos::lx106::irq_hook volatile kairos_lx106_soft_hook = nullptr;

namespace {

// The CCOUNT rate (port::set_cpu_hz()).
kairos::mcu::core_clock core_clock;

std::uint32_t ccount_high = 0;  // wraps of CCOUNT seen by cycles()
std::uint32_t ccount_last = 0;

constexpr std::uint32_t timer0_bit = 1u << 6;  // CCOMPARE0 (lx106 configuration)
constexpr std::uint32_t soft_bit = 1u << KAIROS_LX106_SOFT_IRQ;

std::uint32_t tick_period = 0;  // CCOUNT cycles between ticks; 0: not started
kairos::lx106::irq_hook volatile tick_fn = nullptr;
// Tickless idle (docs/kernel.md, "Tickless idle"): idle_until is the last
// deadline port::idle() was given, in cycles (UINT64_MAX: none); tickers is
// true while a kairos::ticker is armed. The tick hook or an armed ticker
// keeps the periodic tick; otherwise CCOMPARE0 is set for the next
// deadline, at most wrap_guard cycles ahead so that cycles() still sees
// every CCOUNT wrap.
std::uint64_t idle_until = 0;
bool tickers = false;
volatile std::uint32_t timer_irqs = 0;  // port::timer_interrupts()
constexpr std::uint32_t wrap_guard = 1u << 31;

// slice_tick(): time slicing needs the tick (kairos_slice_ticking,
// kairos/detail/time_slice_hook.hpp); always false without
// KAIROS_TIME_SLICE_US.
#if KAIROS_TIME_SLICE_US
KAIROS_ISR_FN bool slice_tick() noexcept { return &kairos_slice_ticking != nullptr && kairos_slice_ticking; }
#else
constexpr bool slice_tick() noexcept { return false; }
#endif

// periodic(): the tick must stay periodic: tickless idle off, a running
// thread whose slice the tick checks, a tick hook or a ticker.
KAIROS_ISR_FN bool periodic() noexcept {
    return !KAIROS_TICKLESS || slice_tick() || tick_fn != nullptr || tickers;
}

std::uint32_t rsr_interrupt() noexcept {
    std::uint32_t v;
    asm volatile("rsr %0, interrupt" : "=r"(v));
    return v;
}
std::uint32_t rsr_intenable() noexcept {
    std::uint32_t v;
    asm volatile("rsr %0, intenable" : "=r"(v));
    return v;
}
void wsr_intenable(std::uint32_t v) noexcept { asm volatile("wsr %0, intenable\n\trsync" ::"r"(v) : "memory"); }
std::uint32_t rsr_ccompare0() noexcept {
    std::uint32_t v;
    asm volatile("rsr %0, ccompare0" : "=r"(v));
    return v;
}
// Writing CCOMPARE0 also acknowledges the timer interrupt.
void wsr_ccompare0(std::uint32_t v) noexcept { asm volatile("wsr %0, ccompare0\n\tesync" ::"r"(v) : "memory"); }

// set_deadline() points CCOMPARE0 at idle_until, or wrap_guard cycles ahead
// if that is sooner (or idle_until passed). Interrupts masked.
KAIROS_ISR_FN void set_deadline() noexcept {
    const std::uint64_t now = kairos::lx106::cycles();
    std::uint32_t d = wrap_guard;
    if (idle_until > now && idle_until - now < wrap_guard) d = static_cast<std::uint32_t>(idle_until - now);
    if (d < 64) d = 64;
    wsr_ccompare0(static_cast<std::uint32_t>(now) + d);
}

}  // namespace

// kairos_tick() handles CCOMPARE0: the next deadline one period after the last,
// or one period from now if this handler ran so late that it already
// passed (else the timer would wait for CCOUNT to wrap, 2^32 cycles).
// The hook runs first (as early as possible), then the tickers; last comes
// cycles()'s wrap accounting (interrupts are masked here), so CCOUNT wraps
// are seen while ticks run even if nothing reads the time.
// Without the periodic tick (tickless) the next compare is the idle
// deadline if it is still ahead, else wrap_guard cycles from now.
extern "C" KAIROS_ISR_FN void kairos_tick() noexcept {
    KAIROS_TRACE_ISR_ENTER(6);  // CCOMPARE0, interrupt 6
    timer_irqs = timer_irqs + 1;
    if (periodic()) {
        const std::uint32_t now = kairos::lx106::ccount();
        std::uint32_t next = rsr_ccompare0() + tick_period;
        if (static_cast<std::int32_t>(next - now) < 16) next = now + tick_period;
        wsr_ccompare0(next);
    } else {
        set_deadline();
    }
    if (const kairos::lx106::irq_hook f = tick_fn) f();
    if (kairos_mcu_ticker_tick != nullptr) tickers = kairos_mcu_ticker_tick();
    const std::uint32_t c = kairos::lx106::ccount();
    if (c < ccount_last) ++ccount_high;
    ccount_last = c;
    KAIROS_SCHED_TICK(kairos_slice_ticking);  // time slicing, when compiled in (after the wrap accounting)
    KAIROS_TRACE_ISR_EXIT(6);
}

namespace {

// thread_returned() is a new thread's a0: entry functions must not return.
[[noreturn]] void thread_returned() { kairos_port_panic("thread entry function returned", KAIROS_FILE, __LINE__); }

}  // namespace

namespace kairos::port {

KAIROS_ISR_FN std::uint64_t now_us() noexcept { return div_u64(lx106::cycles(), core_clock.mhz); }

void set_cpu_hz(std::uint32_t hz) noexcept { core_clock.set(hz, tick_period != 0); }

std::uint32_t cpu_hz() noexcept { return core_clock.hz; }

// ---- context switching (switch.S does the switch itself) -------------------

std::size_t min_stack_size() noexcept {
    // The initial frame, then what runs on a thread's stack besides the
    // thread: an interrupt's frame and handler, and while it is switched
    // out kairos_sched_switch() waiting in idle() with a timer interrupt
    // (frame + handler) nested under it. 256 bytes for the C frames.
    return 3 * sizeof(lx106::exception_frame) + 256;
}

void* stack_init(void* lo, std::size_t size, entry_fn entry, void* arg) noexcept {
    const std::uintptr_t top = (reinterpret_cast<std::uintptr_t>(lo) + size) & ~std::uintptr_t{15};
    auto* f = reinterpret_cast<lx106::exception_frame*>(top - sizeof(lx106::exception_frame));
    *f = lx106::exception_frame{};
    f->pc = reinterpret_cast<std::uintptr_t>(entry);
    f->ps = KAIROS_LX106_PS_UM | KAIROS_LX106_PS_EXCM;  // rfe clears EXCM: INTLEVEL 0
    f->a0 = reinterpret_cast<std::uintptr_t>(&thread_returned);
    f->a2_a15[0] = reinterpret_cast<std::uintptr_t>(arg);  // a2: first argument
    return f;
}

void start_scheduler() noexcept {
    const irq_state s = irq_disable();
    if (tick_period == 0) {
        core_clock.require();
        lx106::tick_start(core_clock.hz / 1000u);
    }
    wsr_intenable(rsr_intenable() | soft_bit);
    irq_restore(s);
    request_switch();
}

// idle() sets CCOMPARE0 for the deadline (tickless, unless the periodic
// tick is needed), then calls the board's hooks around the wait. waiti 0
// unmasks and waits; the interrupt runs before the next instruction, so
// kairos_idle_exit() runs after its handler here (lx106 has no masked
// wait). The software interrupt stays disabled meanwhile: idle() may run
// inside the switch (kairos_sched_switch()), which must not nest; a
// request made by the handler stays pending and the kernel re-checks its
// run queue after idle() returns anyway.
void idle(std::uint64_t deadline_us) noexcept {
#if KAIROS_TIME_SLICE_US
    // No thread runs while the kernel idles: nothing to slice.
    if (&kairos_slice_ticking != nullptr) kairos_slice_ticking = false;
#endif
    if (tick_period != 0 && !periodic()) {
        idle_until = kairos::mcu::to_ticks(deadline_us, core_clock.per_us);
        set_deadline();
    }
    wsr_intenable(rsr_intenable() & ~soft_bit);
    kairos_idle_enter(deadline_us);
    asm volatile("waiti 0\n\trsil a2, 15" ::: "a2", "memory");
    kairos_idle_exit();
    wsr_intenable(rsr_intenable() | soft_bit);
}

std::uint32_t timer_interrupts() noexcept { return timer_irqs; }

const char* name() noexcept { return "xtensa_lx106"; }

}  // namespace kairos::port

void kairos::lx106::tick_start(std::uint32_t period_cycles) noexcept {
    const port::irq_state s = port::irq_disable();
    tick_period = period_cycles;
    if (periodic()) {
        wsr_ccompare0(ccount() + period_cycles);
    } else {
        set_deadline();
    }
    wsr_intenable(rsr_intenable() | timer0_bit);
    port::irq_restore(s);
}

namespace {
// tick_now() moves a tickless compare (maybe far ahead) to one period from
// now: the periodic tick is needed again. Masked.
KAIROS_ISR_FN void tick_now() noexcept {
    if (tick_period == 0) return;
    const std::uint32_t now = kairos::lx106::ccount();
    if (rsr_ccompare0() - now > tick_period) wsr_ccompare0(now + tick_period);
}
}  // namespace

void kairos::lx106::set_tick_hook(irq_hook f) noexcept {
    const port::irq_state s = port::irq_disable();
    tick_fn = f;
    if (f != nullptr) tick_now();
    port::irq_restore(s);
}
void kairos::lx106::set_soft_irq_hook(irq_hook f) noexcept { kairos_lx106_soft_hook = f; }

KAIROS_ISR_FN std::uint64_t kairos::lx106::cycles() noexcept {
    const port::irq_state s = port::irq_disable();
    const std::uint32_t c = ccount();
    if (c < ccount_last) ++ccount_high;
    ccount_last = c;
    const std::uint64_t r = (std::uint64_t{ccount_high} << 32) | c;
    port::irq_restore(s);
    return r;
}

extern "C" {

// kairos_lx106_interrupt(pending) runs the handlers of the pending and
// enabled level-1 interrupts (INTERRUPT & INTENABLE, read by switch.S),
// called with PS.EXCM set, and returns nonzero if the software interrupt (a
// switch request, maybe raised by a handler just now) is pending and
// enabled, so switch.S switches before returning from the interrupt.
std::uint32_t kairos_lx106_interrupt(std::uint32_t pending) noexcept {
    if ((pending & timer0_bit) != 0) kairos_tick();
    if ((pending & soft_bit) != 0) {
        if (const kairos::lx106::irq_hook f = kairos_lx106_soft_hook) f();
    }
    return rsr_interrupt() & rsr_intenable() & soft_bit;
}

// kairos_mcu_tick_ensure() starts the 1 ms tick unless a tick runs, and
// makes it periodic while a ticker is armed: kairos::ticker
// (port/mcu_common/ticker.cpp) calls it when arming.
void kairos_mcu_tick_ensure() noexcept {
    const kairos::port::irq_state s = kairos::port::irq_disable();
    tickers = true;
    if (tick_period == 0) {
        core_clock.require();
        kairos::lx106::tick_start(core_clock.hz / 1000u);
    } else {
        tick_now();
    }
    kairos::port::irq_restore(s);
}

#if KAIROS_TIME_SLICE_US
// kairos_slice_tick_start() (kairos/detail/time_slice_hook.hpp): the tick
// becomes periodic (one period from now, from a tickless compare) unless it
// is already. Masked.
KAIROS_ISR_FN void kairos_slice_tick_start() noexcept { tick_now(); }
#endif

}  // extern "C"

// SPDX-License-Identifier: MIT
// Cortex-M port (ARMv6-M, ARMv7-M, ARMv8-M mainline): interrupt mask, ISR
// detection, the SysTick time base and tick (kairos_tick(), weak
// SysTick_Handler; the time functions are weak, replaced by
// board_timer.cpp's when the board has a timer) and, on ARMv8-M mainline,
// the stack-limit (PSPLIM) UsageFault handler (weak). Only what the architecture defines: console,
// exit, fault policy, startup and the clock rate are the board's (boards/,
// include/kairos/board.hpp).
#include "cortex_m.hpp"
#include "frame.hpp"
#include "mask.hpp"
#include "time_shared.hpp"

#include <kairos/bits.hpp>
#include <kairos/board.hpp>
#include <kairos/detail/time_slice_hook.hpp>
#include <kairos/detail/trace_hook.hpp>
#include <kairos/config.hpp>
#include <kairos/port.hpp>

#include "../mcu_common/core_clock.hpp"

extern "C" void kairos_cortex_m_thread_to_psp(void* msp_top) noexcept;  // pendsv.S

namespace kairos::cortex_m::detail {
kairos::mcu::core_clock core_clock;
std::uint32_t tick_period = 0;
volatile tick_hook tick_fn = nullptr;
std::uint64_t idle_until = 0;
bool tickers = false;
}  // namespace kairos::cortex_m::detail

namespace {

using kairos::cortex_m::initial_frame;
using kairos::cortex_m::stack_guard;
#if KAIROS_CM_HAS_EXC_RETURN
// Thread mode, PSP, basic frame (ARMv8-M: also secure stack and state, the
// state kairos runs in there).
constexpr std::uint32_t exc_return_thread_psp = 0xFFFFFFFD;
#endif

// Handlers' stack once threads run on PSP (the boot stack becomes main's).
// 512 bytes without an FPU (basic frames, small parts), 1 KiB with one.
#ifndef KAIROS_CORTEX_M_ISR_STACK
#  if defined(__ARM_FP)
#    define KAIROS_CORTEX_M_ISR_STACK 1024
#  else
#    define KAIROS_CORTEX_M_ISR_STACK 512
#  endif
#endif
alignas(8) unsigned char isr_stack[KAIROS_CORTEX_M_ISR_STACK];
bool on_psp = false;

// thread_returned() is the lr of a new thread: entry functions must not return.
[[noreturn]] void thread_returned() { kairos_port_panic("thread entry function returned", KAIROS_FILE, __LINE__); }

// SysTick extension. The counter runs without a stop once started; only
// its reload value changes, and SysTick samples that at the end of each
// period, so every period's length is known exactly and nothing is lost:
//   systick_base  cycles at the start of the running period (the handler
//                 adds each period as it ends)
//   period_cur    length of the running period
//   period_next   SYST_RVR + 1: the length of the period after it
// (tick_period: time_shared.hpp.) In one object, so that a time read
// reaches all of it from one address.
struct time_base {
    volatile std::uint64_t base = 0;    // systick_base
    std::uint32_t cur = 0;              // period_cur
    std::uint32_t next = 0;             // period_next
    volatile std::uint32_t irqs = 0;    // timer_irqs: port::timer_interrupts()
};
time_base tb;
using kairos::cortex_m::detail::core_clock;
using kairos::cortex_m::detail::idle_until;
using kairos::cortex_m::detail::periodic;
using kairos::cortex_m::detail::tick_fn;
using kairos::cortex_m::detail::tick_period;
using kairos::cortex_m::detail::tickers;

}  // namespace

namespace kairos::port {

// irq_disable(), irq_restore(), in_isr(), request_switch(): inline in
// kairos_port_irq.hpp.

std::uint64_t now_us() noexcept { return div_u64(cortex_m::cycles(), core_clock.mhz); }

void set_cpu_hz(std::uint32_t hz) noexcept { core_clock.set(hz, tick_period != 0); }

std::uint32_t cpu_hz() noexcept { return core_clock.hz; }

// ---- context switching (pendsv.S does the switch itself) -------------------

std::size_t min_stack_size() noexcept {
    // The initial frame plus one switch's worth of headroom: the frame an
    // interrupt or PendSV stacks (hardware frame + r4-r11/EXC_RETURN; with
    // an FPU the extended frame, 26 words, and s16-s31).
    // On ARMv8-M mainline the stack_guard below PSPLIM comes on top.
#if defined(__ARM_FP)
    return stack_guard + sizeof(initial_frame) + 26 * 4 + KAIROS_CM_FP_FRAME + KAIROS_CM_SW_FRAME;
#else
    return stack_guard + 2 * sizeof(initial_frame);
#endif
}

void* stack_init(void* lo, std::size_t size, entry_fn entry, void* arg) noexcept {
    const std::uintptr_t top = (reinterpret_cast<std::uintptr_t>(lo) + size) & ~std::uintptr_t{7};
    auto* f = reinterpret_cast<initial_frame*>(top - sizeof(initial_frame));
    *f = initial_frame{};
#if KAIROS_CM_HAS_EXC_RETURN
    f->sw.exc_return = exc_return_thread_psp;
#endif
#if KAIROS_CM_HAS_PSPLIM
    f->sw.psplim = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(lo) + stack_guard);
#endif
    f->hw.r0 = reinterpret_cast<std::uintptr_t>(arg);
    f->hw.lr = reinterpret_cast<std::uintptr_t>(&thread_returned);
    f->hw.pc = reinterpret_cast<std::uintptr_t>(entry) & ~std::uintptr_t{1};  // no Thumb bit in pc
    f->hw.xpsr = 1u << 24;                                                      // T bit
    return f;
}

void start_scheduler() noexcept {
    // PendSV and SysTick at the lowest priority: PendSV runs after every
    // other handler, and both are masked by any BASEPRI threshold. The kernel
    // does not wait inside PendSV (KAIROS_PORT_IDLE_IN_SWITCH 0), so nothing
    // needs to preempt it.
    auto& shpr3 = cortex_m::reg::at(cortex_m::reg::scb_shpr3);
    shpr3 = (shpr3 & 0x0000FFFFu) | (0xFFu << 16) | (0xFFu << 24);
#if KAIROS_CM_HAS_BASEPRI
    // A threshold with none of the core's implemented priority bits reads
    // back as 0, which would mask nothing: refuse it.
    std::uint32_t old, got;
    asm volatile("mrs %0, basepri\n\tmsr basepri, %2\n\tmrs %1, basepri\n\tmsr basepri, %0"
                 : "=&r"(old), "=&r"(got)
                 : "r"(KAIROS_MAX_SYSCALL_PRIO)
                 : "memory");
    if (got == 0) kairos_port_panic("KAIROS_MAX_SYSCALL_PRIO sets no implemented priority bit", KAIROS_FILE, __LINE__);
#endif
#if KAIROS_CM_HAS_PSPLIM
    // A thread's stack-limit fault (STKOF) must reach UsageFault_Handler,
    // not escalate to HardFault: enable UsageFault (SHCSR.USGFAULTENA).
    cortex_m::reg::at(cortex_m::reg::scb_shcsr) |= cortex_m::reg::shcsr_usgfaultena;
    asm volatile("dsb\n\tisb" ::: "memory");
#endif
    // Time slicing is checked on the tick: start the time base now
    // (otherwise the first now_us() does), so that kairos_slice_tick_start()
    // can start the tick whenever a level is shared.
    if (KAIROS_TIME_SLICE_US != 0) (void)kairos::cortex_m::cycles();
    if (!on_psp) {
        kairos_cortex_m_thread_to_psp(isr_stack + sizeof isr_stack);
        on_psp = true;
    }
    request_switch();
    asm volatile("isb" ::: "memory");  // unmasked: PendSV is taken here, before returning
}

namespace {
#if KAIROS_CM_HAS_BASEPRI
// WFI wakes only for an interrupt that could preempt at the current
// priority, and BASEPRI counts there: drop it to 0 under PRIMASK (which WFI
// ignores for waking), let what is pending run, then mask again.
void wait_for_interrupt() noexcept {
    std::uint32_t old;
    asm volatile(
        "mrs %0, basepri\n\tcpsid i\n\tmsr basepri, %1\n\tdsb\n\twfi\n\t"
        "cpsie i\n\tisb\n\tmsr basepri, %0"
        : "=&r"(old)
        : "r"(0u)
        : "memory");
}
#else
// Masked WFI still wakes on a pending interrupt; unmasking then lets it run.
void wait_for_interrupt() noexcept { asm volatile("dsb\n\twfi\n\tcpsie i\n\tisb\n\tcpsid i" ::: "memory"); }
#endif
}  // namespace

// idle() programs SysTick's next period to end at the deadline (tickless,
// unless the periodic tick is needed), then calls the board's hooks around
// the wait. The board's kairos_idle_exit() runs before the interrupt that
// woke the core (still masked). No thread runs while the kernel idles, so
// time slicing needs no tick (kairos_slice_ticking).
void idle(std::uint64_t deadline_us) noexcept {
#if KAIROS_TIME_SLICE_US
    if (&kairos_slice_ticking != nullptr) kairos_slice_ticking = false;
#endif
    if (tick_period != 0) kairos::cortex_m::idle_program(deadline_us);
    kairos_idle_enter(deadline_us);
    wait_for_interrupt();
    kairos_idle_exit();
}

// Weak, like the SysTick time functions below: board_timer.cpp's replace
// them when the board has a timer (time_shared.hpp).
__attribute__((weak)) std::uint32_t timer_interrupts() noexcept { return tb.irqs; }

const char* name() noexcept { return "cortex_m"; }

}  // namespace kairos::port

namespace kairos::cortex_m {

namespace {

// SysTick counts RVR .. 0; the wrap event (pending bit, handler adds the
// running period to tb.base) is the 1 -> 0 step, and the next tick
// reloads from RVR. So `v` ticks before the next event, tb.cur - v (0 at
// v == 0) after the last one. Around the event a read is ambiguous: right
// after it, pending may not be visible yet (QEMU raises it only when its
// timer callback runs, a few instructions late; the counter may already
// read 0 or reloaded, to tb.next - 1). read_counter() therefore waits
// out v == 0 and the top settle_ticks below tb.next before trusting
// the pending bit; real cores set both at once, and the wait is at most
// settle_ticks + 1 ticks, only in those windows.
constexpr std::uint32_t settle_ticks = 32;
// apart_ticks: while tickless idle runs with nothing due, consecutive
// periods alternate between tick_period and tick_period +
// apart_ticks (reload_after()). The period that starts at an event is then
// never the length of the one after it, so a read right after the event
// (the counter near the top of the running period, the first now_us()
// after a wake-up) lies outside read_counter()'s ambiguous window and
// needs no settle wait; the window moves to where the running period is
// apart_ticks - settle_ticks ticks old, or out of it entirely.
constexpr std::uint32_t apart_ticks = 2 * settle_ticks;
// Tickless reload limits: SYST_RVR is 24 bits; no period shorter than
// min_reload (well above the settle window and the longest masked span, so
// no event can be missed while masked); an RVR write needs the running
// period to have more than write_margin ticks left, so that it lands
// before the reload samples RVR.
constexpr std::uint32_t max_reload = 1u << 24;
constexpr std::uint32_t min_reload = 512;
constexpr std::uint32_t write_margin = 64;

bool systick_pending() noexcept { return (reg::at(reg::scb_icsr) & reg::icsr_pendstset) != 0; }

bool in_systick_handler() noexcept {
    std::uint32_t ipsr;
    asm volatile("mrs %0, ipsr" : "=r"(ipsr));
    return (ipsr & 0x1FFu) == 15;  // the event was just accounted by the handler
}

// read_counter() returns the counter (24 bits) with bit 31 set if an event
// is pending, read so that they agree (see settle_ticks). Interrupts masked.
constexpr std::uint32_t pending_bit = 1u << 31;
std::uint32_t read_counter() noexcept {
    const std::uint32_t pn = tb.next;
    // An event not yet visible leaves the counter at 0 or reloaded to
    // [pn - settle_ticks, pn); each window is at most settle_ticks + 1 wide.
    const auto ambiguous = [pn](std::uint32_t x) { return x == 0 || x - (pn - settle_ticks) < settle_ticks; };
    bool pending = systick_pending();  // before v: an event after it shows as v == 0
    std::uint32_t v = reg::at(reg::syst_cvr);
    if (!pending && ambiguous(v) && !in_systick_handler()) {
        do {
            pending = systick_pending();
            v = reg::at(reg::syst_cvr);
        } while (!pending && ambiguous(v));
    }
    return pending ? v | pending_bit : v;
}

// count_locked() returns cycles since the first start; interrupts masked
// (SysTick included: systick_start() gives it the lowest priority).
std::uint64_t count_locked() noexcept {
    std::uint32_t v = read_counter();
    std::uint64_t t = tb.base;
    std::uint32_t len = tb.cur;
    if ((v & pending_bit) != 0) {  // an event not accounted yet: the counter is in the period after it
        v &= ~pending_bit;
        t += len;
        len = tb.next;
    }
    return v != 0 ? t + (len - v) : t;
}

// reload_after(start) is the length of a period starting at `start`, the
// end of the running period (tb.cur long): the periodic tick if it is
// needed; tick_period or tick_period + apart_ticks, whichever differs
// from tb.cur (see apart_ticks), if no deadline lies beyond `start`; else
// what reaches idle_until in as few periods as the 24-bit reload allows,
// never leaving a remainder shorter than min_reload.
std::uint32_t reload_after(std::uint64_t start) noexcept {
    if (periodic()) return tick_period;
    if (idle_until <= start) return tb.cur == tick_period ? tick_period + apart_ticks : tick_period;
    const std::uint64_t d = idle_until - start;
    if (d <= max_reload) return d < min_reload ? min_reload : static_cast<std::uint32_t>(d);
    if (d - max_reload < min_reload) return max_reload - min_reload;
    return max_reload;
}

void set_reload(std::uint32_t p) noexcept {
    tb.next = p;
    reg::at(reg::syst_rvr) = p - 1;
}

// restart_now(p) starts a period of p cycles now: the running one is cut
// short (SYST_CVR cleared, which reloads from RVR at the next tick without
// an event). The cycles between reading and clearing the counter are not
// counted: at most one tick on a core that issues the two accesses back
// to back (docs/kernel.md, "Tickless idle"). Masked, no event pending, the
// counter more than write_margin ticks before the event (read_counter()).
void restart_now(std::uint32_t p) noexcept {
    reg::at(reg::syst_rvr) = p - 1;
    const std::uint32_t v = reg::at(reg::syst_cvr);
    reg::at(reg::syst_cvr) = 0;  // any write clears it; the next tick reloads (no event)
    tb.base = tb.base + (tb.cur - v);
    tb.cur = tb.next = p;
}

}  // namespace

__attribute__((weak)) void idle_program(std::uint64_t deadline_us) noexcept {
    if (periodic()) return;
    idle_until = kairos::mcu::to_ticks(deadline_us, core_clock.per_us);
    const std::uint32_t v = read_counter();  // pending: bit 31, so above write_margin
    if ((v & pending_bit) != 0 || v <= write_margin) return;  // the handler programs what follows
    const std::uint64_t end = tb.base + tb.cur;  // of the running period
    if (end > tick_period && idle_until < end - tick_period) {
        // An interrupt woke a thread during a long period and it now waits
        // for less: cut the period short (rare; see restart_now()).
        const std::uint64_t now = end - v;
        restart_now(reload_after(now));
        return;
    }
    const std::uint32_t p = reload_after(end);
    if (p != tb.next) set_reload(p);
}

__attribute__((weak)) void systick_start(std::uint32_t period_cycles) noexcept {
    const port::irq_state s = port::irq_disable();
    // The lowest priority (kernel::run() sets it too): masked by any BASEPRI
    // threshold, so the handler never runs inside a masked time read.
    auto& shpr3 = reg::at(reg::scb_shpr3);
    shpr3 = shpr3 | (0xFFu << 24);
    // Keep the time already counted, including an event still pending.
    // The first start counts from one period: tb.base never wraps.
    const std::uint64_t now = tick_period != 0 ? count_locked() : period_cycles;
    reg::at(reg::syst_csr) = 0;
    reg::at(reg::scb_icsr) = 1u << 25;  // PENDSTCLR: that event is in `now`
    tick_period = period_cycles;
    tb.cur = tb.next = period_cycles;
    reg::at(reg::syst_rvr) = period_cycles - 1;
    reg::at(reg::syst_cvr) = 0;    // any write clears it; the next tick reloads (no event)
    reg::at(reg::syst_csr) = 0x7;  // enable, interrupt, CPU clock
    while (reg::at(reg::syst_cvr) == 0) {
    }  // at most one tick
    tb.base = now - (period_cycles - reg::at(reg::syst_cvr));  // modulo 2^64
    port::irq_restore(s);
}

void set_tick_hook(tick_hook f) noexcept {
    tick_fn = f;
    if (f != nullptr) need_tick();
}

__attribute__((weak)) void need_tick() noexcept {
    const port::irq_state s = port::irq_disable();
    if (tick_period != 0 && tb.cur > tick_period + apart_ticks) {
        const std::uint32_t v = read_counter();  // pending: bit 31
        // A long tickless period runs: the tick starts at once, not at its
        // end. A period apart_ticks longer than the tick just ends.
        if ((v & pending_bit) == 0 && v > tick_period && v > write_margin) restart_now(tick_period);
    }
    if (tick_period != 0 && tb.next != tick_period) set_reload(tick_period);
    port::irq_restore(s);
}

__attribute__((weak)) std::uint64_t cycles() noexcept {
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

extern "C" {

void kairos_mcu_tick_ensure() noexcept {
    (void)kairos::cortex_m::cycles();
    tickers = true;
    kairos::cortex_m::need_tick();
}

#if KAIROS_TIME_SLICE_US
// kairos_slice_tick_start() (kairos/detail/time_slice_hook.hpp): the tick
// becomes periodic (at once, from a tickless period) unless it is already.
void kairos_slice_tick_start() noexcept { kairos::cortex_m::need_tick(); }
#endif

// kairos_tick() accounts the period that just ended and chooses the length
// of the one after the period now running (SysTick reloads from RVR at the
// end of each period, so the choice is always one period ahead).
// Masked while the time base is updated: an interrupt above SysTick's
// priority may read the time meanwhile.
void kairos_tick() noexcept {
    tb.irqs = tb.irqs + 1;
    const kairos::port::irq_state s = kairos::port::irq_disable();
    tb.base = tb.base + tb.cur;
    tb.cur = tb.next;
    kairos::port::irq_restore(s);
    KAIROS_TRACE_ISR_ENTER(15);  // SysTick, exception 15; timestamped once the period is counted
    if (kairos_mcu_ticker_tick != nullptr) tickers = kairos_mcu_ticker_tick();
    if (const kairos::cortex_m::tick_hook f = tick_fn) f();
    KAIROS_SCHED_TICK(kairos_slice_ticking);  // time slicing, when compiled in
    // Unmasked: a reader uses tb.next only with an event pending, and
    // the next one is at least min_reload away.
    const std::uint32_t p = kairos::cortex_m::reload_after(tb.base + tb.cur);
    if (p != tb.next) kairos::cortex_m::set_reload(p);
    KAIROS_TRACE_ISR_EXIT(15);
}

#if KAIROS_CM_HAS_PSPLIM
// kairos_sched_stack_overflow() is the kernel's report (src/sched.cpp).
// Weak: null when the firmware does not link the kernel.
[[noreturn]] void kairos_sched_stack_overflow() noexcept __attribute__((weak));

// HardFault_Handler() is the board's (or the vendor startup's) fault policy.
void HardFault_Handler() noexcept;

// kairos_usage_fault() handles a UsageFault (enabled by start_scheduler();
// declared in kairos/board.hpp). A stack-limit violation (CFSR.STKOF) is a
// thread overflowing its stack: the core stopped it at its PSPLIM, above
// the canary; this runs on MSP and ends the program with the kernel's
// overflow report of the running thread (exit 97). Any other UsageFault
// goes to the board's HardFault_Handler().
void kairos_usage_fault() noexcept {
    const std::uint32_t cfsr = kairos::cortex_m::reg::at(kairos::cortex_m::reg::scb_cfsr);
    if ((cfsr & kairos::cortex_m::reg::cfsr_stkof) != 0) {
        kairos::port::console_write("kairos: stack limit (PSPLIM) fault\n");
        if (kairos_sched_stack_overflow != nullptr) kairos_sched_stack_overflow();
    }
    HardFault_Handler();
}

// UsageFault_Handler() is the default for firmware without its own: weak, so
// a vendor's strong UsageFault_Handler (which then calls kairos_usage_fault())
// wins, as with SysTick_Handler.
__attribute__((weak)) void UsageFault_Handler() noexcept { kairos_usage_fault(); }
#endif

// SysTick_Handler() is the default for firmware without its own: weak, so a
// vendor's strong SysTick_Handler (which then calls kairos_tick()) wins.
__attribute__((weak)) void SysTick_Handler() noexcept { kairos_tick(); }

}  // extern "C"

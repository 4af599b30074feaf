// SPDX-License-Identifier: MIT
// Cortex-M port (ARMv6-M, ARMv7-M, ARMv8-M mainline): interrupt mask, ISR
// detection, the SysTick time base and tick (kairos_tick(), weak
// SysTick_Handler) and, on ARMv8-M mainline, the stack-limit (PSPLIM)
// UsageFault handler (weak). Only what the architecture defines: console,
// exit, fault policy, startup and the clock rate are the board's (boards/,
// include/kairos/board.hpp).
#include "cortex_m.hpp"
#include "frame.hpp"
#include "mask.hpp"

#include <kairos/bits.hpp>
#include <kairos/board.hpp>
#include <kairos/detail/time_slice_hook.hpp>
#include <kairos/detail/trace_hook.hpp>
#include <kairos/port.hpp>

#include "../mcu_common/core_clock.hpp"

extern "C" void kairos_cortex_m_thread_to_psp(void* msp_top) noexcept;  // pendsv.S

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
[[noreturn]] void thread_returned() { kairos_port_panic("thread entry function returned", __FILE__, __LINE__); }

// SysTick extension: cycles counted by completed SysTick periods.
volatile std::uint64_t systick_base = 0;
std::uint32_t systick_period = 0;  // 0: not started
volatile kairos::cortex_m::tick_hook tick_fn = nullptr;

// The core clock (port::set_cpu_hz()).
kairos::mcu::core_clock core_clock;

}  // namespace

namespace kairos::port {

// irq_disable(), irq_restore(), in_isr(), request_switch(): inline in
// kairos_port_irq.hpp.

std::uint64_t now_us() noexcept { return div_u64(cortex_m::cycles(), core_clock.mhz); }

void set_cpu_hz(std::uint32_t hz) noexcept { core_clock.set(hz, systick_period != 0); }

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
    if (got == 0) kairos_port_panic("KAIROS_MAX_SYSCALL_PRIO sets no implemented priority bit", __FILE__, __LINE__);
#endif
#if KAIROS_CM_HAS_PSPLIM
    // A thread's stack-limit fault (STKOF) must reach UsageFault_Handler,
    // not escalate to HardFault: enable UsageFault (SHCSR.USGFAULTENA).
    cortex_m::reg::at(cortex_m::reg::scb_shcsr) |= cortex_m::reg::shcsr_usgfaultena;
    asm volatile("dsb\n\tisb" ::: "memory");
#endif
    // Time slicing is checked on the tick: start it now (otherwise the first
    // now_us() does).
    if (KAIROS_TIME_SLICE_US != 0) kairos_mcu_tick_ensure();
    if (!on_psp) {
        kairos_cortex_m_thread_to_psp(isr_stack + sizeof isr_stack);
        on_psp = true;
    }
    request_switch();
    asm volatile("isb" ::: "memory");  // unmasked: PendSV is taken here, before returning
}

#if KAIROS_CM_HAS_BASEPRI
// WFI wakes only for an interrupt that could preempt at the current
// priority, and BASEPRI counts there: drop it to 0 under PRIMASK (which WFI
// ignores for waking), let what is pending run, then mask again.
void idle(std::uint64_t) noexcept {
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
void idle(std::uint64_t) noexcept { asm volatile("dsb\n\twfi\n\tcpsie i\n\tisb\n\tcpsid i" ::: "memory"); }
#endif

const char* name() noexcept { return "cortex_m"; }

}  // namespace kairos::port

namespace kairos::cortex_m {

namespace {

// SysTick counts period-1 .. 0; the wrap event (pending bit, handler adds
// one period to systick_base) is the 1 -> 0 step, and the next tick reloads.
// So `v` ticks before the next event, period - v (0 at v == 0) after the
// last one. Around the event a read is ambiguous: right after it, pending
// may not be visible yet (QEMU raises it only when its timer callback runs,
// a few instructions late; the counter may already read 0 or reloaded).
// count_locked() therefore waits out v == 0 and the top settle_ticks before
// trusting the pending bit; real cores set both at once, and the wait is at
// most settle_ticks + 1 ticks, only in that window.
constexpr std::uint32_t settle_ticks = 32;

bool systick_pending() noexcept { return (reg::at(reg::scb_icsr) & reg::icsr_pendstset) != 0; }

bool in_systick_handler() noexcept {
    std::uint32_t ipsr;
    asm volatile("mrs %0, ipsr" : "=r"(ipsr));
    return (ipsr & 0x1FFu) == 15;  // the event was just accounted by the handler
}

// count_locked() returns cycles since the first start; interrupts masked.
std::uint64_t count_locked() noexcept {
    const std::uint32_t p = systick_period;
    bool pending = systick_pending();  // before v: an event after it shows as v == 0
    std::uint32_t v = reg::at(reg::syst_cvr);
    const auto ambiguous = [p](std::uint32_t x) { return x == 0 || x >= p - settle_ticks; };
    if (!pending && p > 2 * settle_ticks && ambiguous(v) && !in_systick_handler()) {
        while (ambiguous(reg::at(reg::syst_cvr))) {
        }
        pending = systick_pending();
        v = reg::at(reg::syst_cvr);
    }
    std::uint64_t base = systick_base;
    if (pending) base += p;  // an event the handler has not accounted yet
    return base + (v == 0 ? 0u : p - v);
}

}  // namespace

void systick_start(std::uint32_t period_cycles) noexcept {
    const port::irq_state s = port::irq_disable();
    // Keep the time already counted, including an event still pending.
    const std::uint64_t now = systick_period != 0 ? count_locked() : 0;
    reg::at(reg::syst_csr) = 0;
    reg::at(reg::scb_icsr) = 1u << 25;  // PENDSTCLR: that event is in `now`
    systick_period = period_cycles;
    reg::at(reg::syst_rvr) = period_cycles - 1;
    reg::at(reg::syst_cvr) = 0;    // any write clears it; the next tick reloads (no event)
    reg::at(reg::syst_csr) = 0x7;  // enable, interrupt, CPU clock
    while (reg::at(reg::syst_cvr) == 0) {
    }  // at most one tick
    systick_base = now - (period_cycles - reg::at(reg::syst_cvr));  // modulo 2^64
    port::irq_restore(s);
}

void set_tick_hook(tick_hook f) noexcept { tick_fn = f; }

std::uint64_t cycles() noexcept {
    if (systick_period == 0) {
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

void kairos_mcu_tick_ensure() noexcept { (void)kairos::cortex_m::cycles(); }

void kairos_tick() noexcept {
    systick_base = systick_base + systick_period;
    KAIROS_TRACE_ISR_ENTER(15);  // SysTick, exception 15; timestamped once the period is counted
    if (kairos_mcu_ticker_tick != nullptr) kairos_mcu_ticker_tick();
    if (const kairos::cortex_m::tick_hook f = tick_fn) f();
    KAIROS_SCHED_TICK();  // time slicing, when compiled in
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

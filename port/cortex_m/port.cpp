// Cortex-M port (ARMv6-M, ARMv7-M, ARMv8-M mainline): interrupt mask, ISR
// detection, the SysTick time base, semihosting console/exit, the HardFault
// handler (panic: port/mcu_common/panic.cpp) and, on ARMv8-M mainline, the
// stack-limit (PSPLIM) UsageFault handler.
#include "cortex_m.hpp"
#include "frame.hpp"

#include <kairos/bits.hpp>
#include <kairos/port.hpp>

extern "C" void kairos_cortex_m_thread_to_psp(void* msp_top) noexcept;  // pendsv.S

namespace {

// Exit codes seen by ctest for the port's fatal paths (the startup's
// Default_Handler uses 96 for unexpected exceptions).
constexpr int exit_hardfault = 98;

// semihost(op, arg) performs an ARM semihosting call: bkpt 0xAB with the
// operation in r0 and the argument in r1; the result comes back in r0.
int semihost(int op, const void* arg) noexcept {
    register int r0 asm("r0") = op;
    register const void* r1 asm("r1") = arg;
    asm volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}
constexpr int sys_write0 = 0x04;
constexpr int sys_exit = 0x18;
constexpr int sys_exit_extended = 0x20;
constexpr std::uint32_t adp_stopped_application_exit = 0x20026;
constexpr std::uint32_t adp_stopped_runtime_error = 0x20023;

using kairos::cortex_m::initial_frame;
using kairos::cortex_m::stack_guard;
// Thread mode, PSP, basic frame (ARMv8-M: also secure stack and state, the
// state kairos runs in there).
constexpr std::uint32_t exc_return_thread_psp = 0xFFFFFFFD;

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

}  // namespace

namespace kairos::port {

irq_state irq_disable() noexcept {
    irq_state s;
    asm volatile("mrs %0, primask\n\tcpsid i" : "=r"(s)::"memory");
    return s;
}

// The isb makes an interrupt or PendSV that became pending while masked run
// before irq_restore() returns (port.hpp: the switch happens before return).
void irq_restore(irq_state s) noexcept { asm volatile("msr primask, %0\n\tisb" ::"r"(s) : "memory"); }

bool in_isr() noexcept {
    std::uint32_t ipsr;
    asm volatile("mrs %0, ipsr" : "=r"(ipsr));
    return (ipsr & 0x1FFu) != 0;  // exception number; 0 = thread mode
}

std::uint64_t now_us() noexcept { return div_u64<cortex_m::cpu_hz / 1000000u>(cortex_m::cycles()); }

void console_write(const char* s) noexcept { semihost(sys_write0, s); }

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
    f->sw.exc_return = exc_return_thread_psp;
#if KAIROS_CM_HAS_PSPLIM
    f->sw.psplim = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(lo) + stack_guard);
#endif
    f->hw.r0 = reinterpret_cast<std::uintptr_t>(arg);
    f->hw.lr = reinterpret_cast<std::uintptr_t>(&thread_returned);
    f->hw.pc = reinterpret_cast<std::uintptr_t>(entry) & ~std::uintptr_t{1};  // no Thumb bit in pc
    f->hw.xpsr = 1u << 24;                                                      // T bit
    return f;
}

void request_switch() noexcept {
    cortex_m::reg::at(cortex_m::reg::scb_icsr) = 1u << 28;  // PENDSVSET
    asm volatile("dsb\n\tisb" ::: "memory");  // taken here if unmasked and in thread mode
}

void start_scheduler() noexcept {
    // PendSV lowest priority (runs after every other handler); SysTick one
    // level above, which must preempt PendSV while the kernel idles inside
    // it. 0x80, not 0xC0: ARMv6-M implements only the top 2 priority bits,
    // where 0xC0 and 0xFF are the same level.
    auto& shpr3 = cortex_m::reg::at(cortex_m::reg::scb_shpr3);
    shpr3 = (shpr3 & 0x0000FFFFu) | (0xFFu << 16) | (0x80u << 24);
#if KAIROS_CM_HAS_PSPLIM
    // A thread's stack-limit fault (STKOF) must reach UsageFault_Handler,
    // not escalate to HardFault: enable UsageFault (SHCSR.USGFAULTENA).
    cortex_m::reg::at(cortex_m::reg::scb_shcsr) |= cortex_m::reg::shcsr_usgfaultena;
    asm volatile("dsb\n\tisb" ::: "memory");
#endif
    if (!on_psp) {
        kairos_cortex_m_thread_to_psp(isr_stack + sizeof isr_stack);
        on_psp = true;
    }
    request_switch();
}

// Masked WFI still wakes on a pending interrupt; unmasking then lets it run.
void idle(std::uint64_t) noexcept { asm volatile("dsb\n\twfi\n\tcpsie i\n\tisb\n\tcpsid i" ::: "memory"); }

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
    if (systick_period == 0) systick_start(cpu_hz / 1000u);
    const port::irq_state s = port::irq_disable();
    const std::uint64_t c = count_locked();
    port::irq_restore(s);
    return c;
}

}  // namespace kairos::cortex_m

extern "C" {

void kairos_port_exit(int code) noexcept {
    const std::uint32_t block[2] = {adp_stopped_application_exit, static_cast<std::uint32_t>(code)};
    semihost(sys_exit_extended, block);
    // Fallback for hosts without SYS_EXIT_EXTENDED: only pass/fail survives.
    semihost(sys_exit, reinterpret_cast<const void*>(static_cast<std::uintptr_t>(
                           code == 0 ? adp_stopped_application_exit : adp_stopped_runtime_error)));
    for (;;) asm volatile("wfi");
}

// kairos_mcu_ticker_tick() (port/mcu_common/ticker.cpp) fires due
// kairos::tickers. Weak: null unless the program uses a ticker, so
// ticker.cpp is only linked then. kairos_mcu_tick_ensure() is what it calls
// to have the tick running: SysTick starts with the time base.
void kairos_mcu_ticker_tick() noexcept __attribute__((weak));
void kairos_mcu_tick_ensure() noexcept { (void)kairos::cortex_m::cycles(); }

// SysTick_Handler() advances the 64-bit time base by one period, then fires
// due tickers and runs the tick hook.
void SysTick_Handler() noexcept {
    systick_base = systick_base + systick_period;
    if (kairos_mcu_ticker_tick != nullptr) kairos_mcu_ticker_tick();
    if (const kairos::cortex_m::tick_hook f = tick_fn) f();
}

#if KAIROS_CM_HAS_PSPLIM
// kairos_sched_stack_overflow() is the kernel's report (src/sched.cpp).
// Weak: null when the firmware does not link the kernel.
[[noreturn]] void kairos_sched_stack_overflow() noexcept __attribute__((weak));

// UsageFault_Handler() handles a UsageFault (enabled by start_scheduler()).
// A stack-limit violation (CFSR.STKOF) is a thread overflowing its stack:
// the core stopped it at its PSPLIM, above the canary; this handler runs on
// MSP and ends the program with the kernel's overflow report of the running
// thread (exit 97). Any other UsageFault is reported like a HardFault (98).
void UsageFault_Handler() noexcept {
    const std::uint32_t cfsr = kairos::cortex_m::reg::at(kairos::cortex_m::reg::scb_cfsr);
    if ((cfsr & kairos::cortex_m::reg::cfsr_stkof) != 0) {
        kairos::port::console_write("kairos: stack limit (PSPLIM) fault\n");
        if (kairos_sched_stack_overflow != nullptr) kairos_sched_stack_overflow();
    } else {
        kairos::port::console_write("kairos: UsageFault\n");
    }
    kairos_port_exit(exit_hardfault);
}
#endif

// HardFault_Handler() reports the fault and exits 98.
void HardFault_Handler() noexcept {
    kairos::port::console_write("kairos: HardFault\n");
    kairos_port_exit(exit_hardfault);
}

}  // extern "C"

// SPDX-License-Identifier: MIT
// RV32 machine-mode port: the CLINT time base (mtime) and tick (mtimecmp),
// the interrupt dispatch and the thread half of the context switch (the
// switch itself: trap.S; the interrupt mask, in_isr() and request_switch():
// kairos_port_irq.hpp). Only what the architecture and the CLINT define:
// console, exit, the exception policy, startup, the CLINT's address and the
// timer's rate are the board's (boards/, include/kairos/board.hpp).
#include "riscv.hpp"

#include <kairos/bits.hpp>
#include <kairos/board.hpp>
#include <kairos/detail/time_slice_hook.hpp>
#include <kairos/detail/trace_hook.hpp>
#include <kairos/config.hpp>
#include <kairos/port.hpp>

#include "../mcu_common/core_clock.hpp"

// kairos_riscv_soft_hook is set_soft_irq_hook()'s function; trap.S calls it
// too (for the software interrupt, and in kairos_riscv_switch()).
extern "C" kairos::riscv::irq_hook volatile kairos_riscv_soft_hook;
kairos::riscv::irq_hook volatile kairos_riscv_soft_hook = nullptr;

namespace {

// CLINT registers of hart 0, as word indices from kairos_riscv_clint.
constexpr unsigned clint_msip = 0;
constexpr unsigned clint_mtimecmp = 0x4000 / 4;  // low word; high at + 1
constexpr unsigned clint_mtime = 0xBFF8 / 4;     // low word; high at + 1

// The mtime rate (port::set_cpu_hz()).
kairos::mcu::core_clock core_clock;

std::uint32_t tick_period = 0;  // mtime ticks between ticks; 0: not started
kairos::riscv::irq_hook volatile tick_fn = nullptr;
// Tickless idle (docs/kernel.md, "Tickless idle"): idle_until is the last
// deadline port::idle() was given, in mtime ticks (UINT64_MAX: none);
// tickers is true while a kairos::ticker is armed. The tick hook or an
// armed ticker keeps the periodic tick; otherwise mtimecmp holds the next
// deadline, or all ones (no interrupt) when none is ahead.
std::uint64_t idle_until = 0;
bool tickers = false;
volatile std::uint32_t timer_irqs = 0;  // port::timer_interrupts()

// slice_tick(): time slicing needs the tick (kairos_slice_ticking,
// kairos/detail/time_slice_hook.hpp); always false without
// KAIROS_TIME_SLICE_US.
#if KAIROS_TIME_SLICE_US
bool slice_tick() noexcept { return &kairos_slice_ticking != nullptr && kairos_slice_ticking; }
#else
constexpr bool slice_tick() noexcept { return false; }
#endif

// periodic(): the tick must stay periodic: tickless idle off, a running
// thread whose slice the tick checks, a tick hook or a ticker.
bool periodic() noexcept {
    return !KAIROS_TICKLESS || slice_tick() || tick_fn != nullptr || tickers;
}

std::uint32_t csr_mip() noexcept {
    std::uint32_t v;
    asm volatile("csrr %0, mip" : "=r"(v));
    return v;
}
std::uint32_t csr_mie() noexcept {
    std::uint32_t v;
    asm volatile("csrr %0, mie" : "=r"(v));
    return v;
}
void csr_mie_set(std::uint32_t bits) noexcept { asm volatile("csrs mie, %0" ::"r"(bits) : "memory"); }

// compare: the value last written to mtimecmp (the port is its only
// writer), so the handler never reads the register back.
std::uint64_t compare = UINT64_MAX;

// set_mtimecmp(t) writes the compare register without passing through a
// value below both the old and the new one (the privileged spec's RV32
// sequence: low word all ones first); it also acknowledges the timer
// interrupt once t > mtime. Interrupts masked.
void set_mtimecmp(std::uint64_t t) noexcept {
    compare = t;
    kairos_riscv_clint[clint_mtimecmp] = 0xFFFFFFFFu;
    kairos_riscv_clint[clint_mtimecmp + 1] = static_cast<std::uint32_t>(t >> 32);
    kairos_riscv_clint[clint_mtimecmp] = static_cast<std::uint32_t>(t);
}

// thread_returned() is a new thread's ra: entry functions must not return.
[[noreturn]] void thread_returned() { kairos_port_panic("thread entry function returned", KAIROS_FILE, __LINE__); }

}  // namespace

// kairos_tick() handles the machine timer: the next deadline one period
// after the last, or one period from now if this handler ran so late that
// it already passed (a deadline in the past would fire again at once). The
// hook runs first (as early as possible), then the tickers.
// Without the periodic tick (tickless) the next compare is the idle
// deadline if it is still ahead, else none.
extern "C" void kairos_tick() noexcept {
    KAIROS_TRACE_ISR_ENTER(7);  // machine timer, mcause 7
    timer_irqs = timer_irqs + 1;
    const std::uint64_t now = kairos::riscv::cycles();
    if (periodic()) {
        std::uint64_t next = compare + tick_period;
        if (next < now + 16) next = now + tick_period;
        set_mtimecmp(next);
    } else {
        set_mtimecmp(idle_until > now + 16 ? idle_until : UINT64_MAX);
    }
    if (const kairos::riscv::irq_hook f = tick_fn) f();
    if (kairos_mcu_ticker_tick != nullptr) tickers = kairos_mcu_ticker_tick();
    KAIROS_SCHED_TICK(kairos_slice_ticking);  // time slicing, when compiled in
    KAIROS_TRACE_ISR_EXIT(7);
}

namespace kairos::port {

std::uint64_t now_us() noexcept { return div_u64(riscv::cycles(), core_clock.mhz); }

void set_cpu_hz(std::uint32_t hz) noexcept { core_clock.set(hz, tick_period != 0); }

std::uint32_t cpu_hz() noexcept { return core_clock.hz; }

// ---- context switching (trap.S does the switch itself) ---------------------

std::size_t min_stack_size() noexcept {
    // The initial frame, then what runs on a thread's stack besides the
    // thread: one trap frame and the handler's C frames (handlers do not
    // nest, and the kernel does not wait inside the switch). 128 bytes for
    // the handlers' C frames (the kernel adds its own allowance, and the
    // kernel's 768-byte idle context must fit).
    return 2 * sizeof(riscv::trap_frame) + 128;
}

void* stack_init(void* lo, std::size_t size, entry_fn entry, void* arg) noexcept {
    const std::uintptr_t top = (reinterpret_cast<std::uintptr_t>(lo) + size) & ~std::uintptr_t{15};
    auto* f = reinterpret_cast<riscv::trap_frame*>(top - sizeof(riscv::trap_frame));
    *f = riscv::trap_frame{};
    f->mepc = reinterpret_cast<std::uintptr_t>(entry);
    f->mstatus = KAIROS_RV_MSTATUS_MPP | KAIROS_RV_MSTATUS_MPIE;  // mret: machine mode, MIE = 1
    f->ra = reinterpret_cast<std::uintptr_t>(&thread_returned);
    f->a0_a7[0] = reinterpret_cast<std::uintptr_t>(arg);  // a0: first argument
    return f;
}

void start_scheduler() noexcept {
    const irq_state s = irq_disable();
    if (tick_period == 0) {
        core_clock.require();
        kairos::riscv::tick_start(core_clock.hz / 1000u);
    }
    csr_mie_set(KAIROS_RV_MIE_MSIE);
    irq_restore(s);
    request_switch();
}

// idle() sets mtimecmp to the deadline (tickless, unless the periodic tick
// is needed), then calls the board's hooks around the wait. wfi wakes for
// an interrupt pending in mip and enabled in mie whatever mstatus.MIE says;
// unmasking then lets it run.
void idle(std::uint64_t deadline_us) noexcept {
#if KAIROS_TIME_SLICE_US
    // No thread runs while the kernel idles: nothing to slice.
    if (&kairos_slice_ticking != nullptr) kairos_slice_ticking = false;
#endif
    if (tick_period != 0 && !periodic()) {
        idle_until = kairos::mcu::to_ticks(deadline_us, core_clock.per_us);
        const std::uint64_t now = riscv::cycles();
        set_mtimecmp(idle_until > now + 16 ? idle_until : now + 16);
    }
    kairos_idle_enter(deadline_us);
    asm volatile("wfi" ::: "memory");
    kairos_idle_exit();
    asm volatile("csrsi mstatus, %0\n\tcsrci mstatus, %0" ::"i"(KAIROS_RV_MSTATUS_MIE) : "memory");
}

std::uint32_t timer_interrupts() noexcept { return timer_irqs; }

const char* name() noexcept { return "riscv32"; }

}  // namespace kairos::port

std::uint64_t kairos::riscv::cycles() noexcept {
    std::uint32_t hi, lo;
    do {
        hi = kairos_riscv_clint[clint_mtime + 1];
        lo = kairos_riscv_clint[clint_mtime];
    } while (hi != kairos_riscv_clint[clint_mtime + 1]);  // the low word wrapped in between
    return (std::uint64_t{hi} << 32) | lo;
}

void kairos::riscv::tick_start(std::uint32_t period) noexcept {
    const port::irq_state s = port::irq_disable();
    tick_period = period;
    set_mtimecmp(periodic() ? cycles() + period : UINT64_MAX);
    csr_mie_set(KAIROS_RV_MIE_MTIE);
    port::irq_restore(s);
}

void kairos::riscv::set_tick_hook(irq_hook f) noexcept {
    const port::irq_state s = port::irq_disable();
    tick_fn = f;
    if (f != nullptr && tick_period != 0 && compare > cycles() + tick_period) {
        set_mtimecmp(cycles() + tick_period);  // from a tickless compare: tick at once
    }
    port::irq_restore(s);
}
void kairos::riscv::set_soft_irq_hook(irq_hook f) noexcept { kairos_riscv_soft_hook = f; }

extern "C" {

// kairos_riscv_interrupt() runs the handlers of the pending and enabled
// machine interrupts (mip & mie), called by trap.S with interrupts masked,
// and returns nonzero if the software interrupt (a switch request, maybe
// raised by a handler just now) is pending and enabled, so trap.S switches
// before returning from the trap.
std::uint32_t kairos_riscv_interrupt() noexcept {
    const std::uint32_t pending = csr_mip() & csr_mie();
    if ((pending & KAIROS_RV_MIE_MTIE) != 0) kairos_tick();
    if ((pending & KAIROS_RV_MIE_MEIE) != 0) kairos_riscv_external_irq();
    if ((pending & KAIROS_RV_MIE_MSIE) != 0) {
        if (const kairos::riscv::irq_hook f = kairos_riscv_soft_hook) f();
    }
    return csr_mip() & csr_mie() & KAIROS_RV_MIE_MSIE;
}

// Weak: a firmware with an interrupt controller defines its own.
__attribute__((weak)) void kairos_riscv_external_irq() noexcept {
    kairos_port_panic("machine external interrupt with no handler", KAIROS_FILE, __LINE__);
}

// kairos_mcu_tick_ensure() starts the 1 ms tick unless a tick runs, and
// makes it periodic while a ticker is armed: kairos::ticker
// (port/mcu_common/ticker.cpp) calls it when arming.
void kairos_mcu_tick_ensure() noexcept {
    const kairos::port::irq_state s = kairos::port::irq_disable();
    tickers = true;
    if (tick_period == 0) {
        core_clock.require();
        kairos::riscv::tick_start(core_clock.hz / 1000u);
    } else if (compare > kairos::riscv::cycles() + tick_period) {
        set_mtimecmp(kairos::riscv::cycles() + tick_period);  // from a tickless compare
    }
    kairos::port::irq_restore(s);
}

#if KAIROS_TIME_SLICE_US
// kairos_slice_tick_start() (kairos/detail/time_slice_hook.hpp): the tick
// becomes periodic (one period from now, from a tickless compare) unless it
// is already. Masked.
void kairos_slice_tick_start() noexcept {
    if (tick_period != 0 && compare > kairos::riscv::cycles() + tick_period) {
        set_mtimecmp(kairos::riscv::cycles() + tick_period);
    }
}
#endif

}  // extern "C"

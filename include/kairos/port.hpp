// SPDX-License-Identifier: MIT
// kairos/port.hpp: the port contract. Declarations and their contracts only;
// each port under port/<name>/ defines them. The portable core includes no
// architecture header: everything it needs from the hardware is here.
//
// Contexts named below:
//   thread  a kairos thread or the main loop, interrupts enabled
//   isr     an interrupt handler (on hosts: a POSIX signal handler)
//   any     thread or isr
#pragma once

#include <cstddef>
#include <cstdint>

namespace kairos::port {

// ---- time -----------------------------------------------------------------

// now_us() returns monotonic time in microseconds since an arbitrary origin,
// 64 bits wide so it never wraps in practice. Context: any. Hosts read
// CLOCK_MONOTONIC (vDSO, no system call); MCUs extend a hardware counter.
std::uint64_t now_us() noexcept;

// ---- interrupt masking ----------------------------------------------------

// irq_state is the saved interrupt mask (PRIMASK, PS.INTLEVEL, or the host's
// virtual mask). 0 means "interrupts were enabled": the kernel asserts
// that blocking calls are made with irq_disable() returning 0.
using irq_state = std::uint32_t;

// irq_disable() masks interrupts and returns the previous state. Context:
// any; nests. Never re-enables: pair with irq_restore().
irq_state irq_disable() noexcept;

// irq_restore(s) puts back the mask irq_disable() returned. Context: any.
// When it unmasks, interrupts that arrived while masked run now (hosts:
// signals deferred by the virtual mask), and then, in thread context, a
// switch requested meanwhile (request_switch()) happens before it returns.
void irq_restore(irq_state s) noexcept;

// in_isr() is true while an interrupt (host: a kairos-managed signal
// handler) is executing. Context: any.
bool in_isr() noexcept;

// ---- threads and context switching (used by the kernel, src/) ------------
//
// The model is RIOT's PendSV on every port. The kernel never switches by
// itself: it changes thread states with interrupts masked, calls
// request_switch(), and unmasks. The port then runs its switch routine,
// which asks the kernel for the next thread (kairos_sched_switch() below),
// saves the outgoing thread and restores the next one (in the order the
// port prefers, see kairos_sched_switch()). A thread's context
// is one opaque word, its context handle (for the assembly ports the saved
// stack pointer; for host_ucontext a pointer to a record the port keeps at
// the top of the thread's stack).
//
// What a switch saves: exactly the registers the ABI requires a callee to
// preserve (x86-64 SysV: rbx rbp r12-r15 rsp; AAPCS64: x19-x28 fp lr
// d8-d15; Cortex-M: r4-r11 and, with the FPU in use, s16-s31 by lazy
// stacking) plus the resume address. Not saved, because every kairos thread
// shares them: the signal mask, FS/GS (TLS), and the floating-point control
// state (x86 MXCSR / x87 control word, AArch64 FPCR): a thread that changes
// rounding modes must restore them before it blocks or yields.

// entry_fn is a thread's first function; it is given the arg passed to
// stack_init() and must never return (the kernel's entry calls exit()).
using entry_fn = void (*)(void* arg);

// stack_align is the alignment the kernel requires of thread stacks (base
// and size): the strictest fundamental alignment, 16 on the 64-bit hosts,
// 8 on Cortex-M and Xtensa.
inline constexpr std::size_t stack_align = alignof(std::max_align_t);

// min_stack_size() returns the smallest stack stack_init() can use: the
// initial frame plus whatever the port keeps on the thread's stack
// (host_ucontext: a ucontext_t), plus one switch frame of headroom. The
// kernel refuses smaller stacks. Context: any.
std::size_t min_stack_size() noexcept;

// stack_init(lo, size, entry, arg) builds the initial frame of a new thread
// in the stack [lo, lo + size) and returns its context handle: the first
// switch to it runs entry(arg) on that stack, with interrupts enabled, as
// if entry had been called from a function (ABI stack alignment at the
// call). Writes only inside the top of the stack. Preconditions: lo and
// size multiples of stack_align, size >= min_stack_size(). Context: thread
// (or before kernel::run); any interrupt state; does not switch.
void* stack_init(void* lo, std::size_t size, entry_fn entry, void* arg) noexcept;

// request_switch() asks the port to run its switch routine as soon as the
// interrupt mask allows: from a thread, at the irq_restore() that unmasks
// interrupts; from an isr, on Cortex-M at interrupt exit (PendSV
// tail-chains) and on hosts at the interrupted thread's next kernel entry
// or exit (the next irq_restore that unmasks, or request_switch). Requests
// coalesce: many requests before the switch give one scheduling decision.
// Context: isr, or a thread with interrupts masked (every kernel call
// masks around it, so a port need not make the request take effect before
// it returns); interrupt state unchanged on return. Does not save anything
// itself.
void request_switch() noexcept;

// start_scheduler() performs the first switch from the boot context (the
// caller of kernel::run(), e.g. main()) at once, as a request_switch()
// followed by unmasking would, and returns if and when
// kairos_sched_switch() later returns the boot context's handle (the
// kernel does that only when told to return when idle). Ports that never
// come back (an MCU abandoning main's stack) may
// save the boot context to a scratch area. Context: thread, interrupts
// enabled, called once per kernel::run().
void start_scheduler() noexcept;

// idle(deadline_us) waits for an interrupt when no thread is runnable.
// Called by the kernel with interrupts masked, from kairos_sched_switch()
// (no idle thread) or from the idle thread. It lets pending and new
// interrupts run (their handlers may wake threads and request a switch)
// and returns with interrupts masked again: after at least one interrupt
// ran, when now_us() >= deadline_us (UINT64_MAX: none), or spuriously. The
// kernel re-checks its run queue after every return. Hosts sleep in ppoll()
// with the kairos signals unblocked; the MCU ports program their core timer
// for deadline_us (tickless idle, docs/kernel.md) and wait in WFI / waiti.
void idle(std::uint64_t deadline_us) noexcept;

// name() returns the port's name ("x86_64_sysv", "host_ucontext", ...).
// Context: any.
const char* name() noexcept;

// ---- diagnostics ----------------------------------------------------------

// console_write(s) writes a NUL-terminated string to the debug console:
// stderr on hosts; on MCUs the board's (include/kairos/board.hpp), e.g.
// semihosting under QEMU or a UART. Context: thread; not for isr.
void console_write(const char* s) noexcept;

}  // namespace kairos::port

extern "C" {
// kairos_sched_switch(ctx) is the kernel's half of a switch, called only by
// the port's switch routine with interrupts masked; ctx is the outgoing
// thread's context handle. It records ctx for the outgoing thread, checks
// that thread's stack canary, picks the next thread (waiting in port::idle()
// if none is runnable and there is no idle thread) and returns that
// thread's context handle, which may be ctx itself. A port may call it
// before saving the outgoing registers, with the handle they will have
// once saved, and then save and restore nothing when ctx comes back (RIOT
// #14710; the host asm ports do), or save first and just restore (PendSV
// style). Nothing reads the recorded handle before the port's routine
// ends. Runs on the outgoing thread's stack (hosts) or the interrupt stack
// (Cortex-M PendSV).
void* kairos_sched_switch(void* ctx) noexcept;

// kairos_sched_stack_overflow() is the kernel's report for an overflow the
// hardware caught (a port's stack-limit fault, e.g. ARMv8-M PSPLIM): the
// running thread overflowed its stack. It reports that thread like a broken
// canary ("stack overflow in thread '<name>' ...") through
// kairos_port_panic(). Context: the port's fault handler, on a stack other
// than the thread's. Never returns.
[[noreturn]] void kairos_sched_stack_overflow() noexcept;


// kairos_port_panic() reports a fatal error (failed assertion, stack
// overflow) on the console and stops: abort() on hosts; on MCUs
// port/mcu_common's weak default prints and calls the board's
// kairos_port_exit(97) (board.hpp). Context: any. Never returns.
[[noreturn]] void kairos_port_panic(const char* what, const char* file, int line) noexcept;
}

// A port may define irq_disable(), irq_restore(), in_isr() and
// request_switch() inline, in its header kairos_port_irq.hpp: the kernel
// calls them around every operation, and on the host ports
// (port/host_common) each is a few flag accesses, cheaper inline than a
// call. Whether it does is recorded when the library is built, in the
// generated kairos/port_config.hpp (cmake/port_config.hpp.in), so every
// translation unit, the library's and its users', makes the same choice;
// the include path only has to find the header, which the kairos::kairos
// target provides in the build tree and installed.
#include <kairos/port_config.hpp>
#if KAIROS_PORT_IRQ_INLINE
#  if defined(__has_include)
#    if !__has_include(<kairos_port_irq.hpp>)
#      error "kairos: this port defines its interrupt masks inline in kairos_port_irq.hpp, which is not on the include path: use the include directories of the kairos::kairos target"
#    endif
#  endif
#  include <kairos_port_irq.hpp>
#endif

namespace kairos::port {
// irq_restore_kernel(s) is irq_restore(s) as the kernel's own code (src/)
// calls it after operations that may request a switch; same contract. A
// port whose switch is cheaper as a call than as its switch interrupt may
// carry a pending request out that way here: it defines this in
// kairos_port_irq.hpp with KAIROS_PORT_IRQ_RESTORE_KERNEL (RV32). Elsewhere
// it is irq_restore(s).
#if !defined(KAIROS_PORT_IRQ_RESTORE_KERNEL)
inline void irq_restore_kernel(irq_state s) noexcept { irq_restore(s); }
#endif
}  // namespace kairos::port

// ---- direct yield (optional) --------------------------------------------
//
// kernel::yield() makes its own scheduling decision, one for every port
// (src/sched.cpp, yield_decision()): it rotates the running thread's level
// and, when no slow decision is due (deadlines, a stop, an overflow), no
// better level is runnable and the running thread's canary is intact, the
// next thread is the new head of that level, the running thread itself
// when it is alone there (no switch). Anything else is a switch request and
// the full decision (kairos_sched_switch()). Where request_switch() and the
// port's routine cost more than that decision, a port carries the decided
// switch out itself, in one of two ways (at most one), each named by the
// macro that says the port has it:
//   KAIROS_PORT_DIRECT_SWITCH (the port record, port_config.hpp): the
//     kernel decides in the calling thread, masked, and switches through
//     switch_to() (x86_64_sysv: an ordinary call, no mode change).
//   KAIROS_PORT_YIELD_TRAP (defined by kairos_port_irq.hpp): yield() traps
//     into the port's routine with yield_trap(), and the routine asks the
//     kernel with kairos_sched_yield() (ARMv6-M: an svc, since a thread
//     switched out by PendSV is resumed only by an exception return).
// A port with neither gets a switch request from every yield() after which
// another thread is next.
#if KAIROS_PORT_DIRECT_SWITCH && defined(KAIROS_PORT_YIELD_TRAP)
#  error "kairos: a port has at most one direct yield (KAIROS_PORT_DIRECT_SWITCH or KAIROS_PORT_YIELD_TRAP)"
#endif

namespace kairos::port {
#if KAIROS_PORT_DIRECT_SWITCH
// switch_to(from, to) switches from the running thread to the context
// handle `to`, storing the running thread's handle in *from first: the
// whole of a switch the kernel has already decided, without
// request_switch(), the port's switch routine or kairos_sched_switch(). It
// saves what a switch saves (above) in the same frame the port's routine
// uses, so a thread switched out by either is resumed by either. It
// returns, in the switched-out thread, when a later switch resumes it, and
// then with interrupts unmasked as irq_restore(0) leaves them (interrupts
// that arrived while masked have run, a switch they requested has
// happened): so the port's routines end that way, whichever of them
// resumes a thread, and the kernel calls switch_to() last, as a tail call
// (the switched-out thread resumes in yield()'s caller). Called by the
// kernel only, in thread context with interrupts masked, after it has made
// `to`'s thread the current one. to != *from's thread. Defined by the
// port, inline in kairos_port_irq.hpp or out of line.
void switch_to(void** from, void* to) noexcept;
#endif

#ifdef KAIROS_PORT_YIELD_TRAP
// yield_trap() enters the port's switch routine for kernel::yield() and
// returns true once the yield is done; the routine calls
// kairos_sched_yield() and switches to what it returns. It returns false
// and does nothing when it cannot trap (interrupts masked): then yield()
// decides and requests a switch itself. Context: thread. Defined inline in
// kairos_port_irq.hpp, with the macro.
bool yield_trap() noexcept;
#endif
}  // namespace kairos::port

#ifdef KAIROS_PORT_YIELD_TRAP
// kairos_sched_yield(ctx) is the kernel's half of yield_trap()'s routine:
// the yield decision above and, when it names another thread, the switch's
// bookkeeping. Called only by that routine, with interrupts masked, before
// it saves anything; ctx is the handle the outgoing registers will have
// once saved. It returns the next thread's context handle after recording
// ctx for the outgoing thread (the port then saves and restores), or
// nullptr when the same thread keeps running or the decision needs the
// full kairos_sched_switch() (then it has requested a switch, which runs
// after the trap returns): the port saves and restores nothing.
extern "C" void* kairos_sched_yield(void* ctx) noexcept;
#endif

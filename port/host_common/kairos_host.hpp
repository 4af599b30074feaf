// SPDX-License-Identifier: MIT
// kairos_host.hpp: what the hosted (Linux) ports add to port.hpp: POSIX
// signals as interrupts. Host programs and tests include this; the portable
// core never does.
//
// A signal attached here is a kairos interrupt: its handler runs in isr
// context (port::in_isr() is true) with the virtual interrupt mask set.
// If the signal arrives while the mask is set (a thread inside
// irq_disable()/irq_restore()), the handler is deferred to the irq_restore()
// that unmasks: a flag the handler checks, not sigprocmask, so masking
// costs no system call. The kernel runs on one OS thread; direct the
// signals at it (raise(), pthread_kill(), or a timer with SIGEV_THREAD_ID).
#pragma once

#include <cstdint>

namespace kairos::host {

// attach_signal(signo, isr) installs the kairos handler for signo (1..63),
// which calls isr() as an interrupt. Returns false on a bad signo or if
// sigaction() fails. Context: thread (not concurrently with the signal).
bool attach_signal(int signo, void (*isr)()) noexcept;

// detach_signal(signo) restores the default action. Context: thread.
void detach_signal(int signo) noexcept;

// ---- virtual clock: deterministic time for tests ----------------------------
// In virtual mode port::now_us() returns virtual time, which stands still
// while code runs and advances only when every thread is blocked (as
// -icount does on the QEMU targets): port::idle(deadline) first lets the
// signals already pending run and, if none made a thread runnable, jumps
// virtual time to the earlier of the deadline and the next virtual alarm
// instead of sleeping (with neither, it waits for a real signal). Without
// a kernel, advance_clock() moves time. kairos::ticker uses virtual alarms
// instead of POSIX timers in this mode, so its callbacks come at exact
// virtual times. One OS thread drives virtual time: the kernel's thread or
// the one calling advance_clock(); tickers fire on that thread.

// use_virtual_clock(on) switches the clock. Virtual time starts where the
// clock is; going back to real time keeps now_us() monotonic (the real
// clock continues from the virtual time reached). Context: thread, before
// kernel::run() and with no ticker armed.
void use_virtual_clock(bool on = true) noexcept;

// virtual_clock() is true in virtual mode. Context: any.
bool virtual_clock() noexcept;

// advance_clock(us) moves virtual time forward by us, stopping at each
// virtual alarm on the way to run its handler there, as an interrupt. With
// the mask held (inside irq_disable()) the due handlers are deferred to
// the unmasking irq_restore() instead, once each. No effect in real mode.
// Context: thread, not in a handler.
void advance_clock(std::uint64_t us) noexcept;

// set_virtual_alarm(signo, due_us) makes signo's kairos handler run as an
// interrupt when virtual time reaches due_us (UINT64_MAX: cancel); one
// alarm per signal, replaced by each call. Context: any, also a handler.
void set_virtual_alarm(int signo, std::uint64_t due_us) noexcept;

// deferred_count() counts handler runs that were deferred by the virtual
// mask (tests use it to prove the deferral path ran).
unsigned long deferred_count() noexcept;

}  // namespace kairos::host

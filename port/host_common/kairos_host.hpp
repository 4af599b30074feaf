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

namespace kairos::host {

// attach_signal(signo, isr) installs the kairos handler for signo (1..63),
// which calls isr() as an interrupt. Returns false on a bad signo or if
// sigaction() fails. Context: thread (not concurrently with the signal).
bool attach_signal(int signo, void (*isr)()) noexcept;

// detach_signal(signo) restores the default action. Context: thread.
void detach_signal(int signo) noexcept;

// deferred_count() counts handler runs that were deferred by the virtual
// mask (tests use it to prove the deferral path ran).
unsigned long deferred_count() noexcept;

}  // namespace kairos::host

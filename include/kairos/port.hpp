// kairos/port.hpp: the port contract. Declarations and their contracts only;
// each port under port/<name>/ defines them. The portable core includes no
// architecture header: everything it needs from the hardware is here.
//
// Contexts named below:
//   thread  a kairos thread or the main loop, interrupts enabled
//   isr     an interrupt handler (on hosts: a POSIX signal handler)
//   any     thread or isr
#pragma once

#include <cstdint>

namespace kairos::port {

// ---- time -----------------------------------------------------------------

// now_us() returns monotonic time in microseconds since an arbitrary origin,
// 64 bits wide so it never wraps in practice. Context: any. Hosts read
// CLOCK_MONOTONIC (vDSO, no system call); MCUs extend a hardware counter.
std::uint64_t now_us() noexcept;

// ---- interrupt masking ----------------------------------------------------

// irq_state is the saved interrupt mask (PRIMASK, PS.INTLEVEL, or the host's
// virtual mask).
using irq_state = std::uint32_t;

// irq_disable() masks interrupts and returns the previous state. Context:
// any; nests. Never re-enables: pair with irq_restore().
irq_state irq_disable() noexcept;

// irq_restore(s) puts back the mask irq_disable() returned. Context: any.
void irq_restore(irq_state s) noexcept;

// in_isr() is true while an interrupt (host: a kairos-managed signal
// handler) is executing. Context: any.
bool in_isr() noexcept;

// ---- diagnostics ----------------------------------------------------------

// console_write(s) writes a NUL-terminated string to the debug console
// (stderr on hosts, semihosting under QEMU). Context: thread; not for isr.
void console_write(const char* s) noexcept;

}  // namespace kairos::port

extern "C" {
// kairos_port_panic() reports a fatal error (failed assertion, stack
// overflow) on the console and stops: abort() on hosts, a semihosting exit
// with a distinctive code on targets. Context: any. Never returns.
[[noreturn]] void kairos_port_panic(const char* what, const char* file, int line) noexcept;
}

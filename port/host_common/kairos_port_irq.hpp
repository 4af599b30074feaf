// SPDX-License-Identifier: MIT
// kairos_port_irq.hpp: the host ports' interrupt-mask hooks, defined inline
// (port.hpp includes this header when a port puts it on the include path).
// The kernel masks, requests a switch and unmasks around every operation;
// as calls into host.cpp those cost more instructions than the flag stores
// they perform. Only the unmasking slow part, unmask(), stays out of line.
//
// The flags are thread_local (each OS thread is a CPU with its own
// interrupt mask, as signals are directed at one thread). They are shared
// only between that thread and its own signal handlers, so every access is
// relaxed and ordered by program order plus std::atomic_signal_fence (a
// compiler barrier): no other CPU reads them.
#pragma once

#include <kairos/config.hpp>
#include <kairos/port_config.hpp>

#include <atomic>
#include <cstdint>

namespace kairos::host {

// irq_flags is the virtual interrupt state (see host.cpp for the protocol).
// pending summarises switch_req and deferred for the unmasking fast path:
// whoever sets either sets pending afterwards, and unmask() clears pending
// before it looks at them, so at every instruction of the thread outside
// unmask() either both are 0 or pending is not (pending may also be set
// with nothing behind it: that costs one trip through unmask()). Plain
// stores suffice: the only other writers are this thread's own signal
// handlers, which run entirely between two of its instructions.
// Each flag is a thread_local variable of its own, named through the one
// object irq (irq.masked, ...): GCC reaches a variable's own TLS slot in
// one instruction but computes the address of a member at a non-zero
// offset of a thread_local object first. inline with constant
// initializers: accesses need no TLS init wrapper.
struct irq_flags {
    static inline thread_local std::atomic<std::uint32_t> masked{0};      // the virtual mask: 1 = masked
    static inline thread_local std::atomic<std::uint32_t> isr_depth{0};   // > 0 while a kairos handler runs
    static inline thread_local std::atomic<std::uint32_t> switch_req{0};  // request_switch() pending
    static inline thread_local std::atomic<std::uint32_t> pending{0};     // switch_req or deferred may be set
    static inline thread_local std::atomic<std::uint64_t> deferred{0};    // bit n: signal n arrived masked
};
inline constexpr irq_flags irq{};

// unmask() is the slow part of irq_restore(0): runs deferred handlers and
// a requested switch (thread context only), then clears the mask. Mask set
// on entry.
void unmask() noexcept;

// compiler_fence() keeps kernel data accesses on their side of a mask
// change; the only other party is a signal handler on this thread.
inline void compiler_fence() noexcept { std::atomic_signal_fence(std::memory_order_seq_cst); }

}  // namespace kairos::host

namespace kairos::port {

inline std::uint32_t irq_disable() noexcept {
    const std::uint32_t old = host::irq.masked.load(std::memory_order_relaxed);  // relaxed: same thread
    host::irq.masked.store(1, std::memory_order_relaxed);  // relaxed: fenced below
    host::compiler_fence();  // kernel data accesses stay after the mask is set
    return old;
}

// irq_restore(0) clears the mask and then tests the one summary word: a
// signal that arrives before the clear was deferred and set pending, one
// that arrives after it runs at once (and sets pending if its handler
// requests a switch), so nothing is missed between the two. Only then, in
// unmask(), does it re-mask and drain.
inline void irq_restore(std::uint32_t s) noexcept {
    host::compiler_fence();  // kernel data accesses stay before the mask is cleared
    if (s != 0) {
        host::irq.masked.store(1, std::memory_order_relaxed);  // relaxed: same thread
        return;
    }
    host::irq.masked.store(0, std::memory_order_relaxed);  // relaxed: same thread, fenced
    host::compiler_fence();  // the clear comes before the test below
    if (host::irq.pending.load(std::memory_order_relaxed) != 0) {  // relaxed: same thread
        host::irq.masked.store(1, std::memory_order_relaxed);  // relaxed: unmask() wants it set
        host::unmask();
    }
}

inline bool in_isr() noexcept {
    return host::irq.isr_depth.load(std::memory_order_relaxed) != 0;  // relaxed: same thread
}

inline void request_switch() noexcept {
    host::irq.switch_req.store(1, std::memory_order_relaxed);  // relaxed: same thread
    host::irq.pending.store(1, std::memory_order_relaxed);     // relaxed: same thread, after switch_req
    host::compiler_fence();
    // Masked (the kernel's usual case) or in a handler: taken at the
    // unmasking irq_restore() / next kernel entry.
    if (host::irq.masked.load(std::memory_order_relaxed) != 0 ||   // relaxed: same thread
        host::irq.isr_depth.load(std::memory_order_relaxed) != 0) {  // relaxed: same thread
        return;
    }
    host::irq.masked.store(1, std::memory_order_relaxed);  // relaxed: same thread
    host::unmask();
}

}  // namespace kairos::port

#if KAIROS_ASAN
namespace kairos::host {
// start_switch(to) tells AddressSanitizer that the stack of handle `to`
// comes next (host.cpp); finish_switch() completes it on that stack.
void start_switch(const void* to) noexcept;
void finish_switch() noexcept;
}  // namespace kairos::host
#endif

#if KAIROS_PORT_DIRECT_SWITCH
namespace kairos::host {
// switch_to_now(from, to) is the port's direct switch routine (the symbol
// a port with KAIROS_PORT_DIRECT_SWITCH defines, in assembly): stores the
// running context's handle in *from, resumes `to`, and unmasks there as
// irq_restore(0) would. See port::switch_to().
void switch_to_now(void** from, void* to) noexcept asm("kairos_host_switch_to");
}  // namespace kairos::host

namespace kairos::port {
// switch_to() (port.hpp): the routine itself, which ends unmasked as
// port.hpp asks, so the kernel enters it by a tail jump; with ASan, the
// notices around it (finish_switch() again if the routine already ended
// the switch: it then does nothing).
inline void switch_to(void** from, void* to) noexcept {
#if KAIROS_ASAN
    host::start_switch(to);
    host::switch_to_now(from, to);
    host::finish_switch();
#else
    host::switch_to_now(from, to);
#endif
}
}  // namespace kairos::port
#endif

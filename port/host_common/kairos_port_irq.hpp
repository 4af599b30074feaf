// SPDX-License-Identifier: MIT
// kairos_port_irq.hpp: the host ports' interrupt-mask hooks, defined inline
// (port.hpp includes this header when a port puts it on the include path).
// The kernel masks, requests a switch and unmasks around every operation;
// as calls into host.cpp those cost more instructions than the flag stores
// they perform. Only the unmasking slow part, unmask(), stays out of line.
//
// The flags live in one cache line per OS thread (thread_local: each OS
// thread is a CPU with its own interrupt mask, as signals are directed at
// one thread). They are shared only between that thread and its own signal
// handlers, so every access is relaxed and ordered by program order plus
// std::atomic_signal_fence (a compiler barrier): no other CPU reads them.
#pragma once

#include <atomic>
#include <cstdint>

namespace kairos::host {

// irq_flags is the virtual interrupt state (see host.cpp for the protocol).
struct alignas(64) irq_flags {
    std::atomic<std::uint32_t> masked{0};      // the virtual interrupt mask: 1 = masked
    std::atomic<std::uint32_t> isr_depth{0};   // > 0 while a kairos handler runs
    std::atomic<std::uint32_t> switch_req{0};  // request_switch() pending
    std::atomic<std::uint64_t> deferred{0};    // bit n: signal n arrived while masked
};
// inline with a constant initializer: accesses need no TLS init wrapper.
inline thread_local irq_flags irq;

// unmask() is irq_restore(0): runs deferred handlers and a requested switch
// (thread context only), then clears the mask. Mask set on entry.
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

inline void irq_restore(std::uint32_t s) noexcept {
    host::compiler_fence();  // kernel data accesses stay before the mask is cleared
    if (s != 0) {
        host::irq.masked.store(1, std::memory_order_relaxed);  // relaxed: same thread
        return;
    }
    host::unmask();
}

inline bool in_isr() noexcept {
    return host::irq.isr_depth.load(std::memory_order_relaxed) != 0;  // relaxed: same thread
}

inline void request_switch() noexcept {
    host::irq.switch_req.store(1, std::memory_order_relaxed);  // relaxed: same thread
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

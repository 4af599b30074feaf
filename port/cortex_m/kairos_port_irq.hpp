// SPDX-License-Identifier: MIT
// kairos_port_irq.hpp: the Cortex-M port's interrupt mask, ISR test and
// switch request, defined inline (port.hpp includes this header when the
// port record says KAIROS_PORT_IRQ_INLINE). The kernel masks, requests a
// switch and unmasks around every operation; each is one to three
// instructions, cheaper inline than a call. Contracts: port.hpp.
#pragma once

#include "mask.hpp"

#include <cstdint>

// Always inline: -Os counts an asm statement as large and would call one
// out-of-line copy of each.
#define KAIROS_CM_INLINE inline __attribute__((always_inline))

namespace kairos::port {

#if KAIROS_CM_HAS_BASEPRI
// BASEPRI_MAX only ever raises the masking level, so a nested section (or
// one taken in a handler below the threshold) keeps the stricter mask.
KAIROS_CM_INLINE std::uint32_t irq_disable() noexcept {
    std::uint32_t s, t;
    asm volatile("mrs %0, basepri\n\tmovs %1, %2\n\tmsr basepri_max, %1"
                 : "=&r"(s), "=&r"(t)
                 : "i"(KAIROS_MAX_SYSCALL_PRIO)
                 : "memory");
    return s;
}

// The isb makes an interrupt or PendSV that became pending while masked run
// before irq_restore() returns (port.hpp: the switch happens before return).
KAIROS_CM_INLINE void irq_restore(std::uint32_t s) noexcept { asm volatile("msr basepri, %0\n\tisb" ::"r"(s) : "memory"); }
#else
KAIROS_CM_INLINE std::uint32_t irq_disable() noexcept {
    std::uint32_t s;
    asm volatile("mrs %0, primask\n\tcpsid i" : "=r"(s)::"memory");
    return s;
}

// The isb: as above.
KAIROS_CM_INLINE void irq_restore(std::uint32_t s) noexcept { asm volatile("msr primask, %0\n\tisb" ::"r"(s) : "memory"); }
#endif

KAIROS_CM_INLINE bool in_isr() noexcept {
    std::uint32_t ipsr;
    asm volatile("mrs %0, ipsr" : "=r"(ipsr));
    return (ipsr & 0x1FFu) != 0;  // exception number; 0 = thread mode
}

// request_switch() pends PendSV (ICSR.PENDSVSET). The dsb completes the
// write. No isb: the caller is masked (port.hpp) and the isb of the
// unmasking irq_restore() takes PendSV; in a handler, PendSV tail-chains.
KAIROS_CM_INLINE void request_switch() noexcept {
    *reinterpret_cast<volatile std::uint32_t*>(0xE000ED04u) = 1u << 28;  // SCB ICSR: PENDSVSET
    asm volatile("dsb" ::: "memory");
}

#if !KAIROS_CM_HAS_BASEPRI
// yield_trap() (port.hpp): an svc, whose handler (pendsv.S) makes
// kairos_sched_yield()'s switch directly. An svc with PRIMASK set would
// escalate to HardFault, so a masked caller gets false.
#  define KAIROS_PORT_YIELD_TRAP 1
KAIROS_CM_INLINE bool yield_trap() noexcept {
    std::uint32_t m;
    asm volatile("mrs %0, primask" : "=r"(m));
    if ((m & 1u) != 0) return false;
    asm volatile("svc 0" ::: "memory");
    return true;
}
#endif

}  // namespace kairos::port

#undef KAIROS_CM_INLINE

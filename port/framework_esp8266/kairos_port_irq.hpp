// SPDX-License-Identifier: MIT
// kairos_port_irq.hpp: the interrupt-mask hooks of port/framework_esp8266,
// inline (port.hpp includes this header). The framework (ESP8266 Arduino
// core, NONOS SDK) owns the vectors and the interrupt levels; kairos only
// raises PS.INTLEVEL around its short critical sections, exactly as the
// core's xt_rsil()/xt_wsr_ps() do, and always puts back the previous PS:
// a caller that had interrupts masked stays masked.
#pragma once

#include <cstdint>

namespace kairos::port {

// irq_disable() is xt_rsil(15): mask every maskable level (the core's
// noInterrupts() level) and return the whole previous PS. A thread with
// interrupts enabled gets its PS with INTLEVEL 0 (not necessarily 0: the
// kernel's "0 means enabled" convention does not apply, there is no kernel
// in this port). Context: any; nests.
inline std::uint32_t irq_disable() noexcept {
#if defined(xt_rsil)
    return xt_rsil(15);
#else
    std::uint32_t ps;
    asm volatile("rsil %0, 15" : "=a"(ps)::"memory");  // the core's xt_rsil(15)
    return ps;
#endif
}

// irq_restore(s) is xt_wsr_ps(s): the PS irq_disable() returned, back.
inline void irq_restore(std::uint32_t s) noexcept {
#if defined(xt_wsr_ps)
    xt_wsr_ps(s);
#else
    asm volatile("wsr %0, ps\n\tisync" ::"a"(s) : "memory");  // the core's xt_wsr_ps(s)
#endif
}

// in_isr() is the core's ETS_INTR_WITHINISR(): PS.INTLEVEL != 0. The SDK
// runs interrupt handlers at INTLEVEL 1 or above; a task that masked
// interrupts itself reads as in an isr too, which errs on the safe side
// (ISR-only paths are also correct with interrupts masked).
inline bool in_isr() noexcept {
    std::uint32_t ps;
    asm volatile("rsr %0, ps" : "=a"(ps));
    return (ps & 0x0Fu) != 0;
}

// No request_switch(): the kernel is not part of a framework port (the
// framework schedules its own tasks).

}  // namespace kairos::port

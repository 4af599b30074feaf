// SPDX-License-Identifier: MIT
// kairos_port_irq.hpp: the lx106 port's interrupt-mask hooks, defined inline
// (port.hpp includes this header when a port puts it on the include path).
// The kernel and the critical-section paths of the rings, the deferred
// scheduler and the atomics mask and unmask around every operation; each is
// two or three instructions, less than the call0/ret (plus the literal load
// -mlongcalls adds) of an out-of-line hook.
#pragma once

#include <kairos/config.hpp>

#include <cstdint>

#include "frame.hpp"

namespace kairos::port {

// PS.INTLEVEL 15 masks every maskable interrupt (as the ESP8266 Arduino
// core's noInterrupts() does); rsil returns the whole previous PS, and
// irq_restore() writes it back, so an already masked caller stays masked.
// The state is that PS with PS.UM flipped: threads run with UM set (the
// ESP8266 convention), so a thread with interrupts enabled gets 0, as
// port.hpp requires (a handler gets EXCM, a masked caller its INTLEVEL).
// A pending switch request (the software interrupt) is taken at the wsr
// that unmasks.
KAIROS_ISR_FN inline std::uint32_t irq_disable() noexcept {
    std::uint32_t ps;
    asm volatile("rsil %0, 15" : "=r"(ps)::"memory");
    return ps ^ KAIROS_LX106_PS_UM;
}

KAIROS_ISR_FN inline void irq_restore(std::uint32_t s) noexcept {
    asm volatile("wsr %0, ps\n\trsync" ::"r"(s ^ KAIROS_LX106_PS_UM) : "memory");
}

// PS.EXCM is set by the hardware on taking any exception or level-1
// interrupt and stays set in the handler until it returns (rfe). The
// switch itself (switch.S) runs with EXCM clear, as a masked thread.
KAIROS_ISR_FN inline bool in_isr() noexcept {
    std::uint32_t ps;
    asm volatile("rsr %0, ps" : "=r"(ps));
    return (ps & KAIROS_LX106_PS_EXCM) != 0;
}

// request_switch() raises the software interrupt, the port's PendSV: taken
// at once from a thread with interrupts enabled, at the unmasking
// irq_restore() when masked, on the way out of the handler from an isr.
KAIROS_ISR_FN inline void request_switch() noexcept {
    asm volatile("wsr %0, intset\n\trsync" ::"r"(1u << KAIROS_LX106_SOFT_IRQ) : "memory");
}

}  // namespace kairos::port

// SPDX-License-Identifier: MIT
// kairos_port_irq.hpp: the RV32 port's interrupt-mask hooks, defined inline
// (port.hpp includes this header when a port puts it on the include path).
// The kernel, the rings' and the deferred scheduler's critical sections and
// the atomics shims (rv32imc) mask and unmask around every operation; each
// hook is a few instructions, less than a call.
#pragma once

#include <cstdint>

#include "frame.hpp"

// kairos_riscv_clint is the CLINT's base address (msip of hart 0 at +0,
// mtimecmp at +0x4000, mtime at +0xBFF8), defined by the board's linker
// script: where the CLINT sits is the SoC's choice, its layout is not.
extern "C" volatile std::uint32_t kairos_riscv_clint[];

// kairos_riscv_switch() is the switch the kernel's irq_restore_kernel()
// calls (trap.S; see irq_restore_kernel() below): thread context, interrupts masked,
// msip set; saves s0-s11 and ra, lets the kernel pick the next thread and
// returns with interrupts enabled when this thread is switched back in.
extern "C" void kairos_riscv_switch() noexcept;

namespace kairos::port {

// mstatus.MIE masks every machine interrupt. csrrci returns the whole
// previous mstatus; the state is its MIE bit inverted, so a thread with
// interrupts enabled gets 0, as port.hpp requires, and a masked caller
// KAIROS_RV_MSTATUS_MIE.
__attribute__((always_inline)) inline std::uint32_t irq_disable() noexcept {
    std::uint32_t m;
    asm volatile("csrrci %0, mstatus, %1" : "=r"(m) : "i"(KAIROS_RV_MSTATUS_MIE) : "memory");
    return (m & KAIROS_RV_MSTATUS_MIE) ^ KAIROS_RV_MSTATUS_MIE;
}

// irq_restore() sets MIE only if it was set: a masked caller stays masked
// (csrs of 0 writes nothing). A switch requested meanwhile (msip pending)
// is taken as the software interrupt right after the csrs that unmasks.
// This is the unmasking of the rings, deferred, the atomics and firmware,
// where a request is rare: a call there would cost every critical section
// its registers and its inlining.
__attribute__((always_inline)) inline void irq_restore(std::uint32_t s) noexcept {
    asm volatile("csrs mstatus, %0" ::"r"(s ^ KAIROS_RV_MSTATUS_MIE) : "memory");
}

// irq_restore_kernel() is the kernel's unmasking (port.hpp), where the
// switch requests are made: when it unmasks with msip pending in mip
// (mip.MSIP is the same bit 3 as mstatus.MIE) it calls
// kairos_riscv_switch() (trap.S), which keeps only what a callee must and
// returns unmasked once this thread runs again, instead of taking the
// software interrupt; an interrupt pending meanwhile is taken right after,
// in the thread that then runs.
#define KAIROS_PORT_IRQ_RESTORE_KERNEL 1
__attribute__((always_inline)) inline void irq_restore_kernel(std::uint32_t s) noexcept {
    const std::uint32_t on = s ^ KAIROS_RV_MSTATUS_MIE;  // MIE if this unmasks, else 0
    std::uint32_t pending;
    asm volatile("csrr %0, mip" : "=r"(pending));
    if ((pending & on) != 0) {
        kairos_riscv_switch();
    } else {
        asm volatile("csrs mstatus, %0" ::"r"(on) : "memory");
    }
}

// mscratch is nonzero while a trap handler runs: the trap entry sets it and
// puts the interrupted context's value back on the way out (trap.S).
__attribute__((always_inline)) inline bool in_isr() noexcept {
    std::uint32_t v;
    asm volatile("csrr %0, mscratch" : "=r"(v));
    return v != 0;
}

// request_switch() sets hart 0's msip, the port's PendSV: taken at once from
// a thread with interrupts enabled (the software interrupt), at the
// unmasking irq_restore() when masked (in the kernel's code as a call: see
// irq_restore_kernel()), on the way out of the trap from a handler. The read back
// after `fence o,i` makes the store reach the CLINT, so the interrupt is
// pending (in mip too) before this returns.
__attribute__((always_inline)) inline void request_switch() noexcept {
    asm volatile("sw %1, 0(%0)\n\tfence o, i\n\tlw zero, 0(%0)" ::"r"(kairos_riscv_clint), "r"(1u)
                 : "memory");
}

}  // namespace kairos::port

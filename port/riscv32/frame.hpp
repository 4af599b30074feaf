// SPDX-License-Identifier: MIT
// Layout of the RV32 trap frame, shared by trap.S (as #defines) and port.cpp
// (a struct whose offsets are static_assert'ed against them). It is both
// what the trap entry saves on the interrupted stack and a switched-out
// thread's saved context; see the diagram atop trap.S. Usable from
// assembly: only #defines outside __cplusplus.
//
// Each general register xN is kept at 4 * N. The slots of the registers
// that are not saved hold machine state instead: x0's slot mepc, x2's (sp:
// the handle + KAIROS_RV_FRAME) mstatus, x3's (gp, shared by every thread)
// the interrupted context's mscratch, i.e. its in_isr() state. x4's (tp,
// shared, unused by kairos) is padding.
#pragma once

#define KAIROS_RV_X(n) (4 * (n))       /* xN's slot; valid for 1 and 5..31 */
#define KAIROS_RV_MEPC 0               /* where mret resumes */
#define KAIROS_RV_MSTATUS 8            /* mstatus at trap entry (MPIE, MPP) */
#define KAIROS_RV_MSCRATCH 12          /* nonzero: the interrupted code was a handler */
#define KAIROS_RV_FRAME 128            /* 32 words: sp stays 16-byte aligned (ILP32) */

#define KAIROS_RV_MSTATUS_MIE 0x8      /* machine interrupts enabled */
#define KAIROS_RV_MSTATUS_MPIE 0x80    /* MIE before the trap; mret restores it */
#define KAIROS_RV_MSTATUS_MPP 0x1800   /* privilege before the trap: 3, machine */
#define KAIROS_RV_MIE_MSIE 0x8         /* mie/mip bit 3: machine software interrupt */
#define KAIROS_RV_MIE_MTIE 0x80        /* mie/mip bit 7: machine timer interrupt */
#define KAIROS_RV_MIE_MEIE 0x800       /* mie/mip bit 11: machine external interrupt */
#define KAIROS_RV_MCAUSE_MSI 0x80000003 /* mcause of the machine software interrupt */

#ifdef __cplusplus
#include <cstddef>
#include <cstdint>

namespace kairos::riscv {

// trap_frame is what the context handle (the saved sp) points at.
struct trap_frame {
    std::uint32_t mepc;      // x0's slot
    std::uint32_t ra;        // x1
    std::uint32_t mstatus;   // x2's slot
    std::uint32_t mscratch;  // x3's slot
    std::uint32_t pad;       // x4's slot
    std::uint32_t t0_t2[3];  // x5-x7
    std::uint32_t s0_s1[2];  // x8-x9
    std::uint32_t a0_a7[8];  // x10-x17
    std::uint32_t s2_s11[10];  // x18-x27
    std::uint32_t t3_t6[4];  // x28-x31
};
static_assert(offsetof(trap_frame, mepc) == KAIROS_RV_MEPC);
static_assert(offsetof(trap_frame, ra) == KAIROS_RV_X(1));
static_assert(offsetof(trap_frame, mstatus) == KAIROS_RV_MSTATUS);
static_assert(offsetof(trap_frame, mscratch) == KAIROS_RV_MSCRATCH);
static_assert(offsetof(trap_frame, t0_t2) == KAIROS_RV_X(5));
static_assert(offsetof(trap_frame, s0_s1) == KAIROS_RV_X(8));
static_assert(offsetof(trap_frame, a0_a7) == KAIROS_RV_X(10));
static_assert(offsetof(trap_frame, s2_s11) == KAIROS_RV_X(18));
static_assert(offsetof(trap_frame, t3_t6) == KAIROS_RV_X(28));
static_assert(sizeof(trap_frame) == KAIROS_RV_FRAME);
static_assert(KAIROS_RV_FRAME % 16 == 0, "the ILP32 ABI keeps sp 16-byte aligned");

}  // namespace kairos::riscv
#endif

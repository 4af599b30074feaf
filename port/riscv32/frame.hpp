// SPDX-License-Identifier: MIT
// Layout of the RV32 switch frames, shared by trap.S (as #defines) and
// port.cpp (structs whose offsets are static_assert'ed against them); see
// the diagrams atop trap.S. Usable from assembly: only #defines outside
// __cplusplus. A switched-out thread's context handle points at one of two
// frames on its stack, told apart by the handle's bit 0:
//
// - the trap frame (bit 0 clear; the handle is its address): what the trap
//   entry saves on the interrupted stack, and a context switched out in a
//   trap (preempted, or a new thread from stack_init()). Each general
//   register xN is kept at 4 * N. The slots of the registers that are not
//   saved hold machine state instead: x0's slot mepc, x2's (sp: the handle
//   + KAIROS_RV_FRAME) mstatus, x3's (gp, shared by every thread) the
//   interrupted context's mscratch, i.e. its in_isr() state; these two only
//   in an exception's frame (an interrupt always comes from a thread with
//   MIE set, so its frame resumes with MPIE set, MPP = M and mscratch 0).
//   x4's (tp, shared, unused by kairos) is padding.
// - the call frame (bit 0 set; the handle is its address + 1): what
//   kairos_riscv_switch(), the switch a thread makes in its own context at
//   the kernel's irq_restore_kernel() that unmasks, saves: the callee-saved
//   registers and its return address, which is where the thread resumes.
#pragma once

#define KAIROS_RV_X(n) (4 * (n))       /* xN's slot; valid for 1 and 5..31 */
#define KAIROS_RV_MEPC 0               /* where mret resumes */
#define KAIROS_RV_MSTATUS 8            /* mstatus at trap entry (MPIE, MPP) */
#define KAIROS_RV_MSCRATCH 12          /* nonzero: the interrupted code was a handler */
#define KAIROS_RV_FRAME 128            /* 32 words: sp stays 16-byte aligned (ILP32) */

#define KAIROS_RV_CALL_TAG 1           /* handle bit 0: a call frame */
#define KAIROS_RV_CALL_RA 0            /* the call's return address */
#define KAIROS_RV_CALL_S(i) (4 + 4 * (i)) /* s0-s11 */
#define KAIROS_RV_CALL_FRAME 64        /* 16 words: sp stays 16-byte aligned */

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

// call_frame is what a context handle with bit 0 set points 1 byte past.
struct call_frame {
    std::uint32_t ra;         // where kairos_riscv_switch() returns
    std::uint32_t s0_s11[12];
    std::uint32_t pad[3];
};
static_assert(offsetof(call_frame, ra) == KAIROS_RV_CALL_RA);
static_assert(offsetof(call_frame, s0_s11) == KAIROS_RV_CALL_S(0));
static_assert(sizeof(call_frame) == KAIROS_RV_CALL_FRAME);
static_assert(KAIROS_RV_CALL_FRAME % 16 == 0, "the ILP32 ABI keeps sp 16-byte aligned");
static_assert(KAIROS_RV_MIE_MSIE == KAIROS_RV_MSTATUS_MIE,
              "irq_restore_kernel() tests mip.MSIP with the mstatus.MIE bit it sets");

}  // namespace kairos::riscv
#endif

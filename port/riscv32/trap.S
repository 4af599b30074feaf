/* SPDX-License-Identifier: MIT */
/* RV32 machine-mode trap entry and context switch: port/riscv32.
 *
 * ILP32: ra return address, sp 16-byte aligned, a0-a7 arguments, s0-s11
 * callee-saved, t0-t6 temporaries; gp and tp are the same for every thread
 * (gp the linker's global pointer, tp unused) and never saved. No F/D/V
 * state: the port is for integer-only cores.
 *
 * The firmware points mtvec (direct mode) at kairos_riscv_trap_entry. On
 * every trap the hardware has cleared mstatus.MIE (MPIE keeps the old
 * value) and handlers do not nest: a trap runs to its mret, so the last
 * interrupt level to unwind is the only one, and that is where the switch
 * happens. The entry saves the caller-saved registers, mepc, mstatus and
 * mscratch as a trap frame on the interrupted stack and sets mscratch (what
 * port::in_isr() reads). Then:
 *   - an exception (mcause bit 31 clear): kairos_riscv_exception(mcause,
 *     frame), defined by the firmware, then resume the (maybe fixed-up)
 *     frame;
 *   - the machine software interrupt (msip, the port's PendSV, raised by
 *     request_switch()) with no hook set: straight to the switch;
 *   - any other interrupt: kairos_riscv_interrupt() (port.cpp) runs the
 *     handlers of what is pending and enabled (timer, software hook,
 *     external) and returns nonzero if msip is pending, set by a handler
 *     just now or by the thread before: then the switch, on the way out.
 * The switch clears msip (the decision that follows covers every request
 * so far; one raised during it stays pending and is taken after the
 * mret) and passes the frame's address as the outgoing handle to
 * kairos_sched_switch() before s0-s11 are in it (port.hpp allows that;
 * the C call keeps them in their registers). If the same frame comes back,
 * nothing more is saved or restored; otherwise s0-s11 complete the
 * outgoing frame and the incoming one's are loaded. Every switched-out
 * thread, and every new one (stack_init()), is such a complete frame, so
 * resuming is always the same restore and mret. The kernel never waits inside the switch (port.cmake:
 * NO_IDLE_IN_SWITCH): it idles in its own context, where interrupts can
 * run.
 *
 * Trap frame (context handle = its lowest address; frame.hpp):
 *
 *   handle + 0     mepc        (x0's slot)     new thread: entry
 *   handle + 4     ra (x1)                     new thread: thread_returned
 *   handle + 8     mstatus     (x2's slot)     new thread: MPP = M, MPIE
 *   handle + 12    mscratch    (x3's slot)     new thread: 0 (not a handler)
 *   handle + 16    padding     (x4's slot)
 *   handle + 4*N   xN for N = 5..31            new thread: a0 (x10) = arg
 *   handle + 128   the interrupted sp (16-byte aligned)
 */
#include "frame.hpp"

#define X(n) KAIROS_RV_X(n)

    .if KAIROS_RV_MEPC != 0 || KAIROS_RV_MSTATUS != X(2) || KAIROS_RV_MSCRATCH != X(3) || KAIROS_RV_FRAME != X(32)
    .error "trap.S: frame.hpp does not match the slots used below"
    .endif

    .section .text.kairos_riscv_trap_entry, "ax", @progbits
    .global kairos_riscv_trap_entry
    .type   kairos_riscv_trap_entry, @function
    .weak   kairos_sched_switch     /* only programs using the kernel link it */
    .balign 4                       /* mtvec: BASE is 4-byte aligned */
kairos_riscv_trap_entry:            /* mstatus.MIE = 0 */
    addi    sp, sp, -KAIROS_RV_FRAME
    sw      ra, X(1)(sp)
    sw      t0, X(5)(sp)
    sw      t1, X(6)(sp)
    sw      t2, X(7)(sp)
    sw      a0, X(10)(sp)
    sw      a1, X(11)(sp)
    sw      a2, X(12)(sp)
    sw      a3, X(13)(sp)
    sw      a4, X(14)(sp)
    sw      a5, X(15)(sp)
    sw      a6, X(16)(sp)
    sw      a7, X(17)(sp)
    sw      t3, X(28)(sp)
    sw      t4, X(29)(sp)
    sw      t5, X(30)(sp)
    sw      t6, X(31)(sp)           /* s0-s11: the C calls keep them */
    csrr    t0, mepc
    sw      t0, KAIROS_RV_MEPC(sp)
    csrr    t0, mstatus
    sw      t0, KAIROS_RV_MSTATUS(sp)
    csrrwi  t0, mscratch, 1         /* in_isr() from here to the mret */
    sw      t0, KAIROS_RV_MSCRATCH(sp)
    csrr    a0, mcause
    bgez    a0, .Lexception         /* bit 31 clear: synchronous */
    li      t0, KAIROS_RV_MCAUSE_MSI
    bne     a0, t0, .Ldispatch      /* another source: the C dispatch */
    lui     t0, %hi(kairos_riscv_soft_hook)
    lw      t0, %lo(kairos_riscv_soft_hook)(t0)
    beqz    t0, .Lswitch            /* a switch request and no hook: switch */
.Ldispatch:
    call    kairos_riscv_interrupt  /* a0 != 0: a switch is requested */
    bnez    a0, .Lswitch

.Lreturn:                           /* sp = the frame to resume, s0-s11 live */
    lw      t0, KAIROS_RV_MEPC(sp)
    csrw    mepc, t0
    lw      t0, KAIROS_RV_MSTATUS(sp)
    csrw    mstatus, t0             /* MIE stays 0: MPIE is for the mret */
    lw      t0, KAIROS_RV_MSCRATCH(sp)
    csrw    mscratch, t0
    lw      ra, X(1)(sp)
    lw      t0, X(5)(sp)
    lw      t1, X(6)(sp)
    lw      t2, X(7)(sp)
    lw      a0, X(10)(sp)
    lw      a1, X(11)(sp)
    lw      a2, X(12)(sp)
    lw      a3, X(13)(sp)
    lw      a4, X(14)(sp)
    lw      a5, X(15)(sp)
    lw      a6, X(16)(sp)
    lw      a7, X(17)(sp)
    lw      t3, X(28)(sp)
    lw      t4, X(29)(sp)
    lw      t5, X(30)(sp)
    lw      t6, X(31)(sp)
    addi    sp, sp, KAIROS_RV_FRAME
    mret                            /* pc = mepc, MIE = MPIE */

.Lexception:                        /* a0 = mcause */
    mv      a1, sp                  /* the frame: a handler may fix it up */
    call    kairos_riscv_exception
    j       .Lreturn

.Lswitch:
    lui     t1, %hi(kairos_riscv_clint)
    sw      zero, %lo(kairos_riscv_clint)(t1)   /* msip = 0: the decision below covers */
    lui     t0, %hi(kairos_sched_switch)        /* every request so far; one raised */
    addi    t0, t0, %lo(kairos_sched_switch)    /* during it stays pending */
    beqz    t0, .Lreturn            /* weak: 0 without the kernel, then no switch */
    mv      a0, sp                  /* the handle the frame has once complete */
    jalr    t0                      /* a0 = incoming handle; s0-s11 kept (callee-saved) */
    beq     a0, sp, .Lreturn        /* the same thread: nothing to save or restore */
    sw      s0, X(8)(sp)            /* complete the outgoing frame: it will be */
    sw      s1, X(9)(sp)            /* resumed by another thread's switch */
    sw      s2, X(18)(sp)
    sw      s3, X(19)(sp)
    sw      s4, X(20)(sp)
    sw      s5, X(21)(sp)
    sw      s6, X(22)(sp)
    sw      s7, X(23)(sp)
    sw      s8, X(24)(sp)
    sw      s9, X(25)(sp)
    sw      s10, X(26)(sp)
    sw      s11, X(27)(sp)
    mv      sp, a0
    lw      s0, X(8)(sp)            /* the resumed thread's (a complete frame) */
    lw      s1, X(9)(sp)
    lw      s2, X(18)(sp)
    lw      s3, X(19)(sp)
    lw      s4, X(20)(sp)
    lw      s5, X(21)(sp)
    lw      s6, X(22)(sp)
    lw      s7, X(23)(sp)
    lw      s8, X(24)(sp)
    lw      s9, X(25)(sp)
    lw      s10, X(26)(sp)
    lw      s11, X(27)(sp)
    j       .Lreturn
    .size   kairos_riscv_trap_entry, . - kairos_riscv_trap_entry

/* SPDX-License-Identifier: MIT */
/* RV32 machine-mode trap entry and context switch: port/riscv32.
 *
 * ILP32: ra return address, sp 16-byte aligned, a0-a7 arguments, s0-s11
 * callee-saved, t0-t6 temporaries; gp and tp are the same for every thread
 * (gp the linker's global pointer, tp unused) and never saved. No F/D/V
 * state: the port is for integer-only cores.
 *
 * A switch has two ways in, and a switched-out thread is one of two frames
 * (frame.hpp; the context handle's bit 0 tells which):
 *
 * 1. The trap. The firmware points mtvec (direct mode) at
 *    kairos_riscv_trap_entry. On every trap the hardware has cleared
 *    mstatus.MIE (MPIE keeps the old value) and handlers do not nest: a
 *    trap runs to its mret, so the last interrupt level to unwind is the
 *    only one, and that is where the switch happens. The entry saves the
 *    caller-saved registers and mepc as a trap frame on the interrupted
 *    stack. Then:
 *    - an exception (mcause bit 31 clear): mstatus and mscratch into the
 *      frame too, mscratch = 1, kairos_riscv_exception(mcause, frame),
 *      defined by the firmware, then resume the (maybe fixed-up) frame;
 *    - an interrupt: mscratch = 1 (what port::in_isr() reads; an
 *      interrupt always comes from a thread, so it is 0 again on the way
 *      out, with MPIE set and MPP = M: nothing of mstatus is saved);
 *      - the machine software interrupt (msip, the port's PendSV, raised by
 *        request_switch()): the software hook, if set, then the switch;
 *      - any other: kairos_riscv_interrupt() (port.cpp) runs the handlers
 *        of what is pending and enabled (timer, software hook, external)
 *        and returns nonzero if msip is pending, set by a handler just now
 *        or by the thread before: then the switch, on the way out.
 *    The switch clears msip (the decision that follows covers every
 *    request so far; one raised during it stays pending and is taken
 *    after the mret) and passes the frame's address as the outgoing handle
 *    to kairos_sched_switch() before s0-s11 are in it (port.hpp allows
 *    that; the C call keeps them in their registers). If the same frame
 *    comes back, nothing more is saved or restored; otherwise s0-s11
 *    complete the outgoing frame and the incoming context is resumed.
 *
 * 2. The call. A thread whose kernel operation requested a switch (msip
 *    set with interrupts masked) does not take the interrupt: the kernel's
 *    irq_restore_kernel() that unmasks (kairos_port_irq.hpp; other code's
 *    irq_restore() takes the interrupt) sees msip pending in mip and calls
 *    kairos_riscv_switch(), still masked. As a call, it keeps
 *    only what a callee must: s0-s11 and its return address, as a call
 *    frame. Then the software hook, if set, as the interrupt would have
 *    run it (in_isr() true, masked); then msip = 0 and
 *    kairos_sched_switch() with the call frame's handle (address + 1).
 *    It returns, with interrupts enabled, when the thread is switched back
 *    in. Before start_scheduler() enabled mie.MSIE it does nothing but
 *    unmask: the request stays pending, as the interrupt would.
 *
 * Resuming a trap frame restores s0-s11, the caller-saved registers and
 * mepc and ends with mret; resuming a call frame restores s0-s11 and ra,
 * sets mscratch = 0 and MIE and returns to ra, from a trap or from
 * kairos_riscv_switch() alike. A new thread's frame (stack_init()) is a
 * trap frame. The kernel never waits inside the switch (port.cmake:
 * NO_IDLE_IN_SWITCH): it idles in its own context, where interrupts can
 * run.
 *
 * Trap frame (context handle = its lowest address; frame.hpp):
 *
 *   handle + 0     mepc        (x0's slot)     new thread: entry
 *   handle + 4     ra (x1)                     new thread: thread_returned
 *   handle + 8     mstatus     (x2's slot)     exceptions only
 *   handle + 12    mscratch    (x3's slot)     exceptions only
 *   handle + 16    padding     (x4's slot)
 *   handle + 4*N   xN for N = 5..31            new thread: a0 (x10) = arg
 *   handle + 128   the interrupted sp (16-byte aligned)
 *
 * Call frame (context handle = its lowest address + 1; frame.hpp):
 *
 *   handle - 1 + 0         ra: where kairos_riscv_switch() returns
 *   handle - 1 + 4 + 4*i   s<i> for i = 0..11
 *   handle - 1 + 52        padding (12 bytes)
 *   handle - 1 + 64        the caller's sp (16-byte aligned)
 */
#include "frame.hpp"

#define X(n) KAIROS_RV_X(n)
#define S(i) KAIROS_RV_CALL_S(i)

    .if KAIROS_RV_MEPC != 0 || KAIROS_RV_MSTATUS != X(2) || KAIROS_RV_MSCRATCH != X(3) || KAIROS_RV_FRAME != X(32)
    .error "trap.S: frame.hpp does not match the trap frame slots used below"
    .endif
    .if KAIROS_RV_CALL_RA != 0 || S(11) + 4 > KAIROS_RV_CALL_FRAME || KAIROS_RV_CALL_TAG != 1
    .error "trap.S: frame.hpp does not match the call frame slots used below"
    .endif
    .if S(1) != S(0) + 4 || S(11) != S(2) + 36
    .error "trap.S: s_regs needs s2-s11 in consecutive call frame slots"
    .endif

/* s_regs op, a, b: op (sw or lw) s0-s1 at sp + a, a + 4 and s2-s11 at
 * sp + b .. b + 36: both frames keep them in two runs of slots. */
    .macro  s_regs op, a, b
    \op     s0, \a(sp)
    \op     s1, \a+4(sp)
    \op     s2, \b(sp)
    \op     s3, \b+4(sp)
    \op     s4, \b+8(sp)
    \op     s5, \b+12(sp)
    \op     s6, \b+16(sp)
    \op     s7, \b+20(sp)
    \op     s8, \b+24(sp)
    \op     s9, \b+28(sp)
    \op     s10, \b+32(sp)
    \op     s11, \b+36(sp)
    .endm

    .section .text.kairos_riscv_trap_entry, "ax", @progbits
    .global kairos_riscv_trap_entry
    .type   kairos_riscv_trap_entry, @function
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
    csrr    a0, mcause
    bgez    a0, .Lexception         /* bit 31 clear: synchronous */
    csrwi   mscratch, 1             /* in_isr() from here to the way out */
    li      t0, KAIROS_RV_MCAUSE_MSI
    bne     a0, t0, .Ldispatch      /* another source: the C dispatch */
    lui     t0, %hi(kairos_riscv_soft_hook)
    lw      t0, %lo(kairos_riscv_soft_hook)(t0)
    beqz    t0, .Lswitch            /* a switch request and no hook: switch */
    jalr    t0                      /* the hook; msip is still pending */
.Lswitch:
    lui     t1, %hi(kairos_riscv_clint)
    sw      zero, %lo(kairos_riscv_clint)(t1)   /* msip = 0: the decision below covers */
    mv      a0, sp                              /* every request so far; one raised */
    call    kairos_sched_switch                 /* during it stays pending */
    beq     a0, sp, .Lresume        /* the same thread: nothing to save or restore */
    s_regs  sw, X(8), X(18)         /* complete the outgoing frame: it will be
                                       resumed by another thread's switch */
    andi    t0, a0, KAIROS_RV_CALL_TAG
    bnez    t0, .Lresume_call_frame
.Lresume_trap_frame:                /* a0 = a trap frame (switched out in a trap) */
    mv      sp, a0
    s_regs  lw, X(8), X(18)
    j       .Lresume

.Ldispatch:
    call    kairos_riscv_interrupt  /* a0 != 0: a switch is requested */
    bnez    a0, .Lswitch
.Lresume:                           /* sp = an interrupt's trap frame, s0-s11 live */
    csrwi   mscratch, 0             /* a thread again */
    li      t0, KAIROS_RV_MSTATUS_MPP | KAIROS_RV_MSTATUS_MPIE
    csrs    mstatus, t0             /* mret: machine mode, MIE = 1 */
.Lreturn:                           /* mstatus, mscratch set; MIE stays 0 */
    lw      t0, KAIROS_RV_MEPC(sp)
    csrw    mepc, t0
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

.Lexception:                        /* a0 = mcause; maybe inside a handler */
    csrr    t0, mstatus
    sw      t0, KAIROS_RV_MSTATUS(sp)
    csrrwi  t0, mscratch, 1
    sw      t0, KAIROS_RV_MSCRATCH(sp)
    mv      a1, sp                  /* the frame: a handler may fix it up */
    call    kairos_riscv_exception
    lw      t0, KAIROS_RV_MSTATUS(sp)
    csrw    mstatus, t0             /* MIE stays 0: MPIE is for the mret */
    lw      t0, KAIROS_RV_MSCRATCH(sp)
    csrw    mscratch, t0
    j       .Lreturn

.Lresume_call_frame:                /* a0 = a call frame's handle; from a trap */
    csrwi   mscratch, 0             /* a thread again */
.Lresume_call:                      /* (kairos_riscv_switch(): mscratch is 0) */
    addi    sp, a0, -KAIROS_RV_CALL_TAG
    lw      ra, KAIROS_RV_CALL_RA(sp)
    s_regs  lw, S(0), S(2)
    addi    sp, sp, KAIROS_RV_CALL_FRAME
.Lunmask_return:
    csrsi   mstatus, KAIROS_RV_MSTATUS_MIE
    ret                             /* out of kairos_riscv_switch(), unmasked */
    .size   kairos_riscv_trap_entry, . - kairos_riscv_trap_entry

/* kairos_riscv_switch(): see 2. above. Thread context, mstatus.MIE = 0,
 * msip set; returns with MIE = 1 (kairos_port_irq.hpp). */
    .global kairos_riscv_switch
    .type   kairos_riscv_switch, @function
kairos_riscv_switch:
    csrr    t0, mie
    andi    t0, t0, KAIROS_RV_MIE_MSIE
    beqz    t0, .Lunmask_return     /* not started: the request stays pending */
    addi    sp, sp, -KAIROS_RV_CALL_FRAME
    sw      ra, KAIROS_RV_CALL_RA(sp)
    s_regs  sw, S(0), S(2)
    lui     t0, %hi(kairos_riscv_soft_hook)
    lw      t0, %lo(kairos_riscv_soft_hook)(t0)
    bnez    t0, .Lcall_hook
.Lcall_decide:
    lui     t1, %hi(kairos_riscv_clint)
    sw      zero, %lo(kairos_riscv_clint)(t1)   /* msip = 0, as in the trap */
    addi    a0, sp, KAIROS_RV_CALL_TAG          /* this call frame's handle */
    call    kairos_sched_switch
    andi    t0, a0, KAIROS_RV_CALL_TAG
    bnez    t0, .Lresume_call       /* this thread back too: its frame is complete */
    j       .Lresume_trap_frame
.Lcall_hook:                        /* as the interrupt would: in_isr(), masked */
    csrwi   mscratch, 1
    jalr    t0
    csrwi   mscratch, 0
    j       .Lcall_decide
    .size   kairos_riscv_switch, . - kairos_riscv_switch

/* kairos_sched_switch(ctx) returns ctx (no switch) in a program without the
 * kernel, which defines the real one (src/sched.cpp). */
    .section .text.kairos_sched_switch_none, "ax", @progbits
    .weak   kairos_sched_switch
    .type   kairos_sched_switch, @function
kairos_sched_switch:
    ret
    .size   kairos_sched_switch, . - kairos_sched_switch

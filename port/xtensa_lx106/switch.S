// SPDX-License-Identifier: MIT
/* lx106 (ESP8266) user vector and context switch: port/xtensa_lx106.
 *
 * CALL0 ABI (lx106 has no register windows): a0 return address, a1 stack
 * pointer (16-byte aligned, nothing stored below it), a2-a7 arguments,
 * a12-a15 callee-saved, SAR caller-saved. lx106 has no loop registers, no
 * MAC16, no FPU, no THREADPTR: the whole user state is a0-a15, SAR, PS and
 * the pc.
 *
 * kairos_lx106_user_vector is where the firmware's user vector (VECBASE +
 * 0x50, PS.UM = 1: level-1 interrupts and ordinary exceptions) jumps, after
 * `wsr a0, excsave1`. It saves the interrupted context as an exception
 * frame on the interrupted stack (all but a12-a15, which the C handlers
 * preserve; the switch adds them, so a switched-out thread's frame is
 * complete), then:
 *   - an exception (EXCCAUSE != 4): kairos_lx106_exception(cause, frame),
 *     defined by the firmware, then resume the (maybe fixed-up) frame;
 *   - a level-1 interrupt: kairos_lx106_interrupt(pending) (port.cpp)
 *     runs the handlers with PS.EXCM set (no nesting; skipped when only
 *     the software interrupt is pending and no hook is set for it) and
 *     returns nonzero when the
 *     software interrupt KAIROS_LX106_SOFT_IRQ, the port's PendSV, is
 *     pending: request_switch() sets it from a thread (taken at once, or at
 *     the irq_restore() that unmasks) or from a handler (taken here, on the
 *     way out: no second entry).
 * The switch leaves exception mode with interrupts still masked (PS.EXCM 0,
 * INTLEVEL 15): kairos_sched_switch() may wait in port::idle(), whose
 * waiti must let the timer interrupt nest (on the outgoing thread's stack,
 * below its saved frame; idle() keeps the software interrupt disabled, so
 * no switch nests). It clears the software interrupt (the decision that
 * follows covers every request made so far; one raised during it stays
 * pending and is taken after the rfe), passes the frame's address as the
 * outgoing handle and resumes the frame it gets back: the
 * same one (the same-thread fast path: nothing else happens) or another
 * thread's. Every switched-out thread, and every new one (stack_init()),
 * is such a frame, so resuming is always the same rfe.
 *
 * Exception frame (context handle = its lowest address; frame.hpp):
 *
 *   handle + 0    pc       EPC1                new thread: entry
 *   handle + 4    PS       PS.EXCM set         new thread: UM | EXCM
 *   handle + 8    SAR
 *   handle + 12   a0                           new thread: thread_returned
 *   handle + 16   a2 .. a15 (4 bytes each)     new thread: a2 = arg
 *   handle + 72   2 words of padding
 *   handle + 80   the interrupted a1 (16-byte aligned)
 */
#include "frame.hpp"

#define A(n) (KAIROS_LX106_A2 + 4 * ((n) - 2))

    .section .text.kairos_lx106_user_vector, "ax"
    .global kairos_lx106_user_vector
    .type   kairos_lx106_user_vector, @function
    .weak   kairos_sched_switch     /* only programs using the kernel link it */
    .literal_position
    .align  4
kairos_lx106_user_vector:           /* PS.EXCM = 1, a0 in EXCSAVE1 */
    addi    a1, a1, -KAIROS_LX106_FRAME
    s32i    a2, a1, A(2)
    s32i    a3, a1, A(3)
    s32i    a4, a1, A(4)
    s32i    a5, a1, A(5)
    s32i    a6, a1, A(6)
    s32i    a7, a1, A(7)
    s32i    a8, a1, A(8)
    s32i    a9, a1, A(9)
    s32i    a10, a1, A(10)
    s32i    a11, a1, A(11)              /* a12-a15: the C calls keep them */
    rsr     a2, excsave1
    s32i    a2, a1, KAIROS_LX106_A0
    rsr     a2, sar
    s32i    a2, a1, KAIROS_LX106_SAR
    rsr     a2, epc1
    s32i    a2, a1, KAIROS_LX106_PC
    rsr     a2, ps
    s32i    a2, a1, KAIROS_LX106_PS
    rsr     a2, exccause
    bnei    a2, 4, .Lexception      /* 4: level-1 interrupt */
    rsr     a2, interrupt
    rsr     a3, intenable
    and     a2, a2, a3              /* pending and enabled */
    bbsi    a2, 6, .Ldispatch       /* CCOMPARE0: the C dispatch */
    bbci    a2, KAIROS_LX106_SOFT_IRQ, .Ldispatch  /* another source: the C dispatch */
    movi    a3, kairos_lx106_soft_hook
    l32i    a3, a3, 0               /* a switch request: straight to the */
    beqz    a3, .Lswitch            /* switch unless a software-interrupt hook is set */
.Ldispatch:
    call0   kairos_lx106_interrupt  /* (pending); a2 != 0: switch requested */
    bnez    a2, .Lswitch

.Lreturn:                           /* a1 = the frame to resume, a12-a15 live */
    l32i    a0, a1, KAIROS_LX106_PC
    wsr     a0, epc1
    l32i    a0, a1, KAIROS_LX106_SAR
    wsr     a0, sar
    l32i    a0, a1, KAIROS_LX106_PS
    wsr     a0, ps                  /* EXCM set: level-1 interrupts stay masked until rfe */
    rsync
    l32i    a2, a1, A(2)
    l32i    a3, a1, A(3)
    l32i    a4, a1, A(4)
    l32i    a5, a1, A(5)
    l32i    a6, a1, A(6)
    l32i    a7, a1, A(7)
    l32i    a8, a1, A(8)
    l32i    a9, a1, A(9)
    l32i    a10, a1, A(10)
    l32i    a11, a1, A(11)
    l32i    a0, a1, KAIROS_LX106_A0
    addi    a1, a1, KAIROS_LX106_FRAME
    rfe                             /* pc = EPC1, PS.EXCM = 0 */

.Lexception:                        /* a2 = EXCCAUSE */
    mov     a3, a1                  /* the frame: a handler may fix it up */
    call0   kairos_lx106_exception
    j       .Lreturn

.Lswitch:
    movi    a0, kairos_sched_switch /* weak: 0 without the kernel, then no switch */
    beqz    a0, .Lno_kernel
    s32i    a12, a1, A(12)          /* complete the frame: it may be */
    s32i    a13, a1, A(13)          /* resumed by another thread's switch */
    s32i    a14, a1, A(14)
    s32i    a15, a1, A(15)
    movi    a2, KAIROS_LX106_PS_UM | 15
    wsr     a2, ps                  /* leave exception mode, stay masked */
    rsync
    movi    a2, 1 << KAIROS_LX106_SOFT_IRQ
    wsr     a2, intclear            /* the decision below covers every request so far; */
    mov     a2, a1                  /* one raised during it (or a hook trigger) stays */
    callx0  a0                      /* a2 = incoming handle (maybe the same) */
    mov     a1, a2
    l32i    a12, a1, A(12)          /* the resumed thread's (a complete frame) */
    l32i    a13, a1, A(13)
    l32i    a14, a1, A(14)
    l32i    a15, a1, A(15)
    j       .Lreturn
.Lno_kernel:
    movi    a3, 1 << KAIROS_LX106_SOFT_IRQ
    wsr     a3, intclear
    j       .Lreturn
    .size   kairos_lx106_user_vector, . - kairos_lx106_user_vector

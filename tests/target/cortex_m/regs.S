/* SPDX-License-Identifier: MIT */
/* Register-conformance helpers for the Cortex-M port (the contract is in
 * tests/target/regs_target.cpp): kt_regs_switch(seed, out, fpu) and
 * kt_regs_spin(seed, out, fpu, stop).
 *
 * Both load r4-r11 from seed[0..7] and, with fpu != 0 on an FPU build,
 * s0-s31 from seed[8..39] (the thread then has an FP context: its next
 * exception entry stacks an extended frame, EXC_RETURN bit 4 clear). Then
 *   kt_regs_switch opens kairos' mask (BASEPRI 0; ARMv6-M: PRIMASK clear),
 *     so the PendSV the caller's kernel operation left pending is taken at
 *     the isb, with the seeded values live;
 *   kt_regs_spin spins with the mask open until *stop != 0: a timer
 *     interrupt and the PendSV it pends preempt it anywhere in the loop.
 * Then they store r4-r11 to out[0..7], s0-s31 to out[8..39] (fpu only) and
 * CONTROL to out[40] (FPU builds: FPCA tells which frame the thread came
 * back with), restore the caller's registers and return. Only r0-r3 and
 * r12 (hardware-stacked) carry the helper's own state in between.
 *
 * Frame: out, r4-r11, lr (10 words: sp stays 8-byte aligned), then with
 * fpu the caller's s16-s31 (16 words). The ARMv6-M variant keeps the same
 * 10 words, r8-r11 moved through r4-r7 (Thumb-1 ldm/stm reach r0-r7 only).
 */
#include "mask.hpp"

    .syntax unified
    .thumb
    .text

#if defined(__ARM_ARCH_6M__)

/* load_seed / store_out: r0 = seed or out; r4-r11 from/to [r0, #0..28]. */
    .macro  load_seed
    adds    r0, #16
    ldmia   r0!, {r4-r7}
    mov     r8, r4
    mov     r9, r5
    mov     r10, r6
    mov     r11, r7
    subs    r0, #32
    ldmia   r0!, {r4-r7}
    .endm
    .macro  store_out
    ldr     r0, [sp]
    stmia   r0!, {r4-r7}
    mov     r4, r8
    mov     r5, r9
    mov     r6, r10
    mov     r7, r11
    stmia   r0!, {r4-r7}
    .endm
    .macro  enter
    push    {r4-r7, lr}
    mov     r4, r8
    mov     r5, r9
    mov     r6, r10
    mov     r7, r11
    push    {r4-r7}
    push    {r1}                    /* out */
    .endm
    .macro  leave
    add     sp, #4
    pop     {r4-r7}
    mov     r8, r4
    mov     r9, r5
    mov     r10, r6
    mov     r11, r7
    pop     {r4-r7, pc}
    .endm

    .global kt_regs_switch
    .type   kt_regs_switch, %function
    .thumb_func
kt_regs_switch:
    enter
    load_seed
    cpsie   i                       /* the pending PendSV is taken here */
    isb
    store_out
    leave
    .size   kt_regs_switch, . - kt_regs_switch

    .global kt_regs_spin
    .type   kt_regs_spin, %function
    .thumb_func
kt_regs_spin:
    enter
    load_seed
1:  ldr     r0, [r3]
    cmp     r0, #0
    beq     1b
    store_out
    leave
    .size   kt_regs_spin, . - kt_regs_spin

#else  /* ARMv7-M, ARMv8-M mainline */

    .macro  enter
    push    {r1, r4-r11, lr}        /* out at [sp] */
    mov     r12, r2                 /* fpu: hardware-stacked, kept across the switch */
#  if defined(__ARM_FP)
    cbz     r2, 1f
    vpush   {s16-s31}
    add     r2, r0, #32
    vldmia  r2, {s0-s31}
1:
#  endif
    ldmia   r0, {r4-r11}
    .endm
    .macro  leave
#  if defined(__ARM_FP)
    cmp     r12, #0
    ite     eq
    ldreq   r0, [sp]
    ldrne   r0, [sp, #64]           /* out, above the caller's s16-s31 */
#  else
    ldr     r0, [sp]
#  endif
    stmia   r0, {r4-r11}
#  if defined(__ARM_FP)
    mrs     r1, control
    str     r1, [r0, #160]          /* out[40] */
    cmp     r12, #0
    beq     2f
    add     r0, r0, #32
    vstmia  r0, {s0-s31}
    vpop    {s16-s31}
2:
#  endif
    pop     {r1, r4-r11, pc}
    .endm

    .global kt_regs_switch
    .type   kt_regs_switch, %function
    .thumb_func
kt_regs_switch:
    enter
#  if KAIROS_CM_HAS_BASEPRI
    movs    r3, #0
    msr     basepri, r3             /* the pending PendSV is taken here */
#  else
#    error "regs.S: an ARMv7-M or ARMv8-M mainline core without BASEPRI"
#  endif
    isb
    leave
    .size   kt_regs_switch, . - kt_regs_switch

    .global kt_regs_spin
    .type   kt_regs_spin, %function
    .thumb_func
kt_regs_spin:
    enter
3:  ldr     r0, [r3]
    cmp     r0, #0
    beq     3b
    leave
    .size   kt_regs_spin, . - kt_regs_spin

#endif

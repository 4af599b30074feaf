// SPDX-License-Identifier: MIT
/* AArch64 AAPCS64 context switch for kairos (port/aarch64_aapcs).
 *
 * kairos_aarch64_switch is entered by a branch (not bl) from
 * host::switch_now(), with the resume address in x30 and the virtual
 * interrupt mask set. It asks kairos_sched_switch() for the next thread
 * first, passing the handle the outgoing thread will have (sp - 160, where
 * the stores below will put its registers). The same thread back: nothing
 * is saved or restored (RIOT #14710). Otherwise it stores the callee-saved
 * registers there, loads the incoming handle, restores and resumes with
 * `br x30`: an indirect branch, not `ret`, whose return-stack prediction
 * would be wrong on every real switch (the x86-64 port's pop + jmp, see
 * targets.md §9).
 *
 * Saved: x19-x28, fp (x29), lr (x30, the resume address), d8-d15 (the low
 * halves of v8-v15, all AAPCS64 asks a callee to keep), sp as the handle.
 * Not saved: caller-saved registers, FPCR/FPSR (one floating-point
 * environment for all kairos threads), TPIDR_EL0 and the signal mask (one
 * OS thread).
 *
 * Frame at the context handle (offsets in frame.hpp, static_assert'ed):
 *
 *   handle +   0  x19 x20        new thread: x19 = entry, x20 = arg
 *   handle +  16  x21 x22        new thread: x21 = kairos_host_thread_start
 *   handle +  32  x23 x24
 *   handle +  48  x25 x26
 *   handle +  64  x27 x28
 *   handle +  80  fp  lr         new thread: fp = 0, lr = kairos_aarch64_start
 *   handle +  96  d8  d9
 *   handle + 112  d10 d11
 *   handle + 128  d12 d13
 *   handle + 144  d14 d15
 *   handle + 160  sp after the resume (16-byte aligned)
 */
#include "frame.hpp"

    .text
    .globl  kairos_aarch64_switch
    .type   kairos_aarch64_switch, %function
    .p2align 4
kairos_aarch64_switch:
    sub     x0, sp, #KAIROS_A64_FRAME   /* the handle this thread gets if switched out */
    str     x30, [sp, #-16]!            /* keep the resume address across the call */
    bl      kairos_host_pick            /* kairos_sched_switch (+ ASan notice): x0 = incoming handle */
    ldr     x30, [sp], #16
    sub     x1, sp, #KAIROS_A64_FRAME
    cmp     x0, x1
    b.eq    1f                          /* same thread (RIOT #14710): nothing to save */
    sub     sp, sp, #KAIROS_A64_FRAME   /* the stores land exactly at that handle */
    stp     x19, x20, [sp, #KAIROS_A64_X19]
    stp     x21, x22, [sp, #KAIROS_A64_X21]
    stp     x23, x24, [sp, #KAIROS_A64_X23]
    stp     x25, x26, [sp, #KAIROS_A64_X25]
    stp     x27, x28, [sp, #KAIROS_A64_X27]
    stp     x29, x30, [sp, #KAIROS_A64_FP]
    stp     d8, d9, [sp, #KAIROS_A64_D8]
    stp     d10, d11, [sp, #KAIROS_A64_D10]
    stp     d12, d13, [sp, #KAIROS_A64_D12]
    stp     d14, d15, [sp, #KAIROS_A64_D14]
    mov     sp, x0
    ldp     x19, x20, [sp, #KAIROS_A64_X19]
    ldp     x21, x22, [sp, #KAIROS_A64_X21]
    ldp     x23, x24, [sp, #KAIROS_A64_X23]
    ldp     x25, x26, [sp, #KAIROS_A64_X25]
    ldp     x27, x28, [sp, #KAIROS_A64_X27]
    ldp     x29, x30, [sp, #KAIROS_A64_FP]
    ldp     d8, d9, [sp, #KAIROS_A64_D8]
    ldp     d10, d11, [sp, #KAIROS_A64_D10]
    ldp     d12, d13, [sp, #KAIROS_A64_D12]
    ldp     d14, d15, [sp, #KAIROS_A64_D14]
    add     sp, sp, #KAIROS_A64_FRAME
1:  br      x30                         /* resume; not ret (no return prediction) */
    .size   kairos_aarch64_switch, .-kairos_aarch64_switch

/* kairos_aarch64_start: first resume of a new thread. */
    .globl  kairos_aarch64_start
    .type   kairos_aarch64_start, %function
    .p2align 4
kairos_aarch64_start:
    mov     x0, x19                     /* entry */
    mov     x1, x20                     /* arg */
    blr     x21                         /* kairos_host_thread_start(entry, arg): never returns */
    brk     #0
    .size   kairos_aarch64_start, .-kairos_aarch64_start

    .section .note.GNU-stack, "", %progbits

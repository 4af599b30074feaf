// SPDX-License-Identifier: MIT
/* kt_regs_call(seed, out, fn) for AArch64 AAPCS64 (regs.hpp): loads
 * x19-x29 from seed[0..10] and d8-d15 from seed[11..18], calls fn (blr:
 * the resume address in x30), stores the same registers to out[],
 * restores the caller's and returns. No frame but fn's lies between the
 * loads and the stores.
 *
 * kt_regs_switch(seed, out) is kt_regs_call with the port's switch routine
 * as fn, entered as host::switch_now() enters it: on the aarch64_aapcs port
 * (KT_REGS_ASM_SWITCH) kairos_aarch64_switch with the resume address in
 * x30 (what blr gives), otherwise (the ucontext port) kairos_host_switch_now.
 * Contract, as host.cpp's unmask() calls it: virtual mask set, switch
 * request consumed (the caller, regs_switch() in the test, does both and
 * finishes the switch afterwards).
 *
 * Frame (176 bytes, 16-byte aligned): x19-x28 at 0-72, x29 x30 at 80,
 * d8-d15 at 96-152, out at 160. fn is kept in x16, which the seeding
 * leaves alone. */
    .text
    .globl  kt_regs_switch
    .type   kt_regs_switch, %function
    .p2align 2
kt_regs_switch:
#if KT_REGS_ASM_SWITCH
    adrp    x2, kairos_aarch64_switch
    add     x2, x2, :lo12:kairos_aarch64_switch
#else
    adrp    x2, kairos_host_switch_now
    add     x2, x2, :lo12:kairos_host_switch_now
#endif
    b       kt_regs_call
    .size   kt_regs_switch, .-kt_regs_switch

    .globl  kt_regs_call
    .type   kt_regs_call, %function
    .p2align 2
kt_regs_call:
    sub     sp, sp, #176
    stp     x19, x20, [sp, #0]
    stp     x21, x22, [sp, #16]
    stp     x23, x24, [sp, #32]
    stp     x25, x26, [sp, #48]
    stp     x27, x28, [sp, #64]
    stp     x29, x30, [sp, #80]
    stp     d8, d9, [sp, #96]
    stp     d10, d11, [sp, #112]
    stp     d12, d13, [sp, #128]
    stp     d14, d15, [sp, #144]
    str     x1, [sp, #160]
    mov     x16, x2                 /* fn */
    ldp     x19, x20, [x0, #0]
    ldp     x21, x22, [x0, #16]
    ldp     x23, x24, [x0, #32]
    ldp     x25, x26, [x0, #48]
    ldp     x27, x28, [x0, #64]
    ldr     x29, [x0, #80]
    ldp     d8, d9, [x0, #88]
    ldp     d10, d11, [x0, #104]
    ldp     d12, d13, [x0, #120]
    ldp     d14, d15, [x0, #136]
    blr     x16
    ldr     x9, [sp, #160]          /* out */
    stp     x19, x20, [x9, #0]
    stp     x21, x22, [x9, #16]
    stp     x23, x24, [x9, #32]
    stp     x25, x26, [x9, #48]
    stp     x27, x28, [x9, #64]
    str     x29, [x9, #80]
    stp     d8, d9, [x9, #88]
    stp     d10, d11, [x9, #104]
    stp     d12, d13, [x9, #120]
    stp     d14, d15, [x9, #136]
    ldp     x19, x20, [sp, #0]
    ldp     x21, x22, [sp, #16]
    ldp     x23, x24, [sp, #32]
    ldp     x25, x26, [sp, #48]
    ldp     x27, x28, [sp, #64]
    ldp     x29, x30, [sp, #80]
    ldp     d8, d9, [sp, #96]
    ldp     d10, d11, [sp, #112]
    ldp     d12, d13, [sp, #128]
    ldp     d14, d15, [sp, #144]
    add     sp, sp, #176
    ret
    .size   kt_regs_call, .-kt_regs_call
    .section .note.GNU-stack,"",%progbits

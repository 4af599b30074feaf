// SPDX-License-Identifier: MIT
/* kt_regs_hold(seed, out, op, arg) for x86-64 System V (regs.hpp):
 * loads rbx rbp r12 r13 r14 r15 from seed[0..5], calls op(arg), stores
 * the same registers to out[0..5], restores the caller's and returns.
 * No C++ frame holds the seeded values: whatever op switches to or from,
 * the values out sees are what the port's switch gave back.
 *
 * Frame: the six callee-saved registers, then out (rsp 16-byte aligned
 * at the call). */
    .text
    .globl  kt_regs_hold
    .type   kt_regs_hold, @function
    .p2align 4
kt_regs_hold:
    pushq   %rbp
    pushq   %rbx
    pushq   %r12
    pushq   %r13
    pushq   %r14
    pushq   %r15
    pushq   %rsi                    /* out; rsp = 0 (mod 16) */
    movq    %rdi, %r11              /* seed */
    movq    %rdx, %rax              /* op */
    movq    %rcx, %rdi              /* arg */
    movq    0x00(%r11), %rbx
    movq    0x08(%r11), %rbp
    movq    0x10(%r11), %r12
    movq    0x18(%r11), %r13
    movq    0x20(%r11), %r14
    movq    0x28(%r11), %r15
    call    *%rax
    popq    %r11                    /* out */
    movq    %rbx, 0x00(%r11)
    movq    %rbp, 0x08(%r11)
    movq    %r12, 0x10(%r11)
    movq    %r13, 0x18(%r11)
    movq    %r14, 0x20(%r11)
    movq    %r15, 0x28(%r11)
    popq    %r15
    popq    %r14
    popq    %r13
    popq    %r12
    popq    %rbx
    popq    %rbp
    ret
    .size   kt_regs_hold, .-kt_regs_hold
    .section .note.GNU-stack,"",@progbits

// SPDX-License-Identifier: MIT
/* kt_regs_call(seed, out, fn) for x86-64 System V (regs.hpp): loads rbx
 * rbp r12 r13 r14 r15 from seed[0..5], calls fn, stores the same registers
 * to out[0..5], restores the caller's and returns. No frame but fn's lies
 * between the loads and the stores, so a register fn fails to preserve
 * reaches out[] with another thread's value.
 *
 * kt_regs_switch(seed, out) is kt_regs_call with the port's switch routine
 * kairos_host_switch_now (host::switch_now(); the x86_64_sysv port's
 * switch.S, or the ucontext port's function) as fn. Contract of that call,
 * as host.cpp's unmask() makes it: virtual mask set, switch request
 * consumed (the caller, regs_switch() in the test, does both and finishes
 * the switch afterwards).
 *
 * Frame: the six callee-saved registers, then out (rsp 16-byte aligned
 * at the call). fn is kept in rax, which the seeding leaves alone. */
    .text
    .globl  kt_regs_switch
    .type   kt_regs_switch, @function
    .p2align 4
kt_regs_switch:
    movq    kairos_host_switch_now@GOTPCREL(%rip), %rdx
    jmp     kt_regs_call
    .size   kt_regs_switch, .-kt_regs_switch

    .globl  kt_regs_call
    .type   kt_regs_call, @function
    .p2align 4
kt_regs_call:
    pushq   %rbp
    pushq   %rbx
    pushq   %r12
    pushq   %r13
    pushq   %r14
    pushq   %r15
    pushq   %rsi                    /* out; rsp = 0 (mod 16) */
    movq    %rdx, %rax              /* fn */
    movq    0x00(%rdi), %rbx
    movq    0x08(%rdi), %rbp
    movq    0x10(%rdi), %r12
    movq    0x18(%rdi), %r13
    movq    0x20(%rdi), %r14
    movq    0x28(%rdi), %r15
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
    .size   kt_regs_call, .-kt_regs_call
    .section .note.GNU-stack,"",@progbits

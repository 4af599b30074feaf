/* x86-64 System V context switch for kairos (port/x86_64_sysv).
 *
 * kairos_x86_64_switch is entered by a jump, not a call: host::switch_now()
 * aligns rsp to 16, pushes its resume address and jumps here with the
 * virtual interrupt mask set. It asks kairos_sched_switch() for the next
 * thread first, passing the handle the outgoing thread will have (rsp - 48,
 * where the six pushes will put its registers; the pushes happen after the
 * call, which is fine because nothing reads the handle before the pushes).
 * If the answer is the same thread nothing is saved or restored (RIOT
 * #14710); otherwise it pushes the callee-saved registers, loads the
 * incoming handle, pops and resumes with pop + jmp. Neither side touches
 * the return-stack buffer, so it stays balanced: `ret` would be predicted
 * from the entry the switching-out thread pushed, and a `call` in with a
 * jmp out would leave that entry behind and misalign every later return
 * (measured: sched.nop 21 ns balanced vs 50 ns call + pop/jmp on the 2-vCPU
 * VM). targets.md §9 measured pop + jmp 5x faster than ret for a bare
 * switch.
 *
 * Saved: rbx rbp r12 r13 r14 r15, rsp (as the handle), rip. Not saved:
 * caller-saved registers (the call already gave them up), MXCSR and the
 * x87 control word (all kairos threads share one floating-point
 * environment; a thread that changes it restores it before blocking), the
 * signal mask and FS (one OS thread).
 *
 * Frame at the context handle (offsets in frame.hpp, static_assert'ed):
 *
 *   handle + 0x00  r15
 *   handle + 0x08  r14
 *   handle + 0x10  r13            new thread: arg
 *   handle + 0x18  r12            new thread: kairos_host_thread_start
 *   handle + 0x20  rbx            new thread: entry
 *   handle + 0x28  rbp            new thread: 0 (ends frame-pointer chains)
 *   handle + 0x30  resume rip     new thread: kairos_x86_64_start
 *   handle + 0x38  rsp after the resume: 16-byte aligned (switch_now
 *                  aligns before its push; stack_init for a new thread)
 */
#include "frame.hpp"

    .text
    .globl  kairos_x86_64_switch
    .type   kairos_x86_64_switch, @function
    .p2align 4
kairos_x86_64_switch:                 /* rsp 16-aligned, [rsp] = resume address */
    .cfi_startproc
    leaq    -48(%rsp), %rdi         /* the handle this thread gets if it is switched out */
    call    kairos_host_pick@PLT    /* kairos_sched_switch (+ ASan notice): rax = incoming handle */
    leaq    -48(%rsp), %rcx
    cmpq    %rax, %rcx
    je      1f                      /* same thread (RIOT #14710): nothing to save or restore */
    pushq   %rbp                    /* the pushes land exactly at the handle given above */
    pushq   %rbx
    pushq   %r12
    pushq   %r13
    pushq   %r14
    pushq   %r15
    movq    %rax, %rsp
    popq    %r15
    popq    %r14
    popq    %r13
    popq    %r12
    popq    %rbx
    popq    %rbp
1:  popq    %rcx                    /* resume address; rcx is caller-saved, free */
    jmpq    *%rcx
    .cfi_endproc
    .size   kairos_x86_64_switch, .-kairos_x86_64_switch

/* kairos_x86_64_start: first resume of a new thread. rsp = handle + 0x38,
 * 16-byte aligned by stack_init, so the call below sees a proper frame. */
    .globl  kairos_x86_64_start
    .type   kairos_x86_64_start, @function
    .p2align 4
kairos_x86_64_start:
    movq    %rbx, %rdi              /* entry */
    movq    %r13, %rsi              /* arg */
    call    *%r12                   /* kairos_host_thread_start(entry, arg): never returns */
    ud2
    .size   kairos_x86_64_start, .-kairos_x86_64_start

    .section .note.GNU-stack, "", @progbits

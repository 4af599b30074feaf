// SPDX-License-Identifier: MIT
/* x86-64 System V context switch for kairos (port/x86_64_sysv).
 *
 * kairos_host_switch_now is host::switch_now() itself (host_switch.hpp
 * gives the C++ declaration this symbol name): an ordinary ABI call from
 * the one call site in host.cpp's unmask(), with the virtual interrupt
 * mask set. The call already pushed the resume address and gave up the
 * caller-saved registers, so the routine needs no stack realignment and
 * no red-zone skip. It asks kairos_sched_switch() for the next thread
 * first, passing the handle the outgoing thread will have (where the
 * pushes will put its registers; nothing reads the handle before they
 * happen). If the answer is the same thread nothing is saved or restored
 * (RIOT #14710); otherwise it pushes the callee-saved registers, loads the
 * incoming handle, pops and returns with `ret`. The call and the `ret`
 * stay paired on the return-stack buffer even across threads: every
 * switched-out thread was called from the same site, so the `ret` of the
 * incoming thread goes exactly where the predictor expects (a new thread's
 * first `ret` to kairos_x86_64_start is the one miss, once per thread).
 * The earlier entry by jump with a hand-pushed address and a pop + jmp
 * exit cost 9 more instructions per switch.
 *
 * kairos_host_switch_to below is the direct switch (port::switch_to()):
 * the same frame, without the question to the kernel. The kernel's yield()
 * enters it by a tail jump, so the resume address of a thread it switches
 * out is yield()'s caller's.
 *
 * Both routines end, in the thread they resume, as irq_restore(0) does
 * (unmask_ret below): the virtual mask is cleared and the one summary word
 * (pending) tested; only when it is set does the slow part run,
 * kairos_host_unmask_step() (host.cpp), and a switch it finds due re-enters
 * kairos_host_switch_now as if the resumed code had called it: a loop, not
 * a nesting, however many signals keep arriving. So whichever routine
 * resumes a thread, its code continues unmasked: the yield()'s caller, or
 * unmask() after its call of switch_now().
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
 *   handle + 0x38  rsp after the resume: 16-byte aligned (the ABI's
 *                  alignment at the call; stack_init for a new thread)
 */
#include "frame.hpp"

/* The virtual mask and its summary word (port/host_common/kairos_port_irq.hpp,
 * host::irq_flags::masked and ::pending): thread_local, reached through FS
 * as the C++ code reaches them, local-exec in an executable, initial-exec
 * (one GOT load) in a shared object. */
#define KAIROS_X64_MASKED _ZN6kairos4host9irq_flags6maskedE
#define KAIROS_X64_PENDING _ZN6kairos4host9irq_flags7pendingE
#if defined(__PIC__) && !defined(__PIE__)
.macro tls_store_masked value
    movq    KAIROS_X64_MASKED@gottpoff(%rip), %rcx
    movl    $\value, %fs:(%rcx)
.endm
.macro tls_test_pending
    movq    KAIROS_X64_PENDING@gottpoff(%rip), %rcx
    cmpl    $0, %fs:(%rcx)
.endm
#else
.macro tls_store_masked value
    movl    $\value, %fs:KAIROS_X64_MASKED@tpoff
.endm
.macro tls_test_pending
    cmpl    $0, %fs:KAIROS_X64_PENDING@tpoff
.endm
#endif

/* unmask_ret: irq_restore(0) and return, with [rsp] = the resume address of
 * the thread just resumed (rsp = 8 mod 16, as at a function's entry).
 * Clears the mask first and tests the summary after, the order of
 * irq_restore(): a signal before the clear was deferred and set pending,
 * one after it ran at once. rax, rcx: free (the resumed code called a
 * function; rax carries no result). */
.macro unmask_ret
    tls_store_masked 0
    tls_test_pending
    jne     kairos_x64_unmask_slow
    ret
.endm

    .text
    .globl  kairos_host_switch_now
    .type   kairos_host_switch_now, @function
    .p2align 4
kairos_host_switch_now:               /* called: [rsp] = resume address, rsp = 8 (mod 16) */
    .cfi_startproc
    pushq   %rbp                    /* first of the six saves; also aligns rsp for the call */
    .cfi_adjust_cfa_offset 8
    leaq    -KAIROS_X64_RBP(%rsp), %rdi /* the handle this thread gets if it is switched out */
    call    kairos_host_pick@PLT    /* kairos_sched_switch (+ ASan notice): rax = incoming handle */
    leaq    -KAIROS_X64_RBP(%rsp), %rcx
    cmpq    %rax, %rcx
    je      1f                      /* same thread (RIOT #14710): nothing more to save or restore */
    pushq   %rbx                    /* the pushes land exactly at the handle given above */
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
1:  popq    %rbp
    .cfi_adjust_cfa_offset -8
    unmask_ret
    .cfi_endproc
    .size   kairos_host_switch_now, .-kairos_host_switch_now

/* kairos_x64_unmask_slow: unmask_ret found the summary set. Re-mask and
 * let kairos_host_unmask_step() drain (deferred handlers, the mask cleared
 * again, the summary re-tested); it returns true, mask set, when a switch
 * is due, which is then kairos_host_switch_now entered by a jump: the
 * resume address is still at [rsp], exactly as if the resumed code had
 * called the routine. */
    .p2align 4
kairos_x64_unmask_slow:
    .cfi_startproc
    tls_store_masked 1
    subq    $8, %rsp                /* the ABI's alignment for the call */
    .cfi_adjust_cfa_offset 8
    call    kairos_host_unmask_step@PLT
    addq    $8, %rsp
    .cfi_adjust_cfa_offset -8
    testb   %al, %al
    jne     kairos_host_switch_now
    ret
    .cfi_endproc
    .size   kairos_x64_unmask_slow, .-kairos_x64_unmask_slow

/* kairos_host_switch_to(from, to) is port::switch_to() (the kernel's
 * direct switch, host::switch_to_now() in kairos_port_irq.hpp): rdi = where
 * to store the outgoing handle, rsi = the incoming handle. Entered by an
 * ABI call or a tail jump, with the virtual mask set; the kernel has made
 * the decision, so there is nothing to ask: push the same frame
 * kairos_host_switch_now pushes (rbp first, r15 last, under the resume
 * address), store the handle, load the other, pop, unmask_ret. A thread
 * switched out here is resumed by either routine's pops, and so is one
 * switched out there. */
    .globl  kairos_host_switch_to
    .type   kairos_host_switch_to, @function
    .p2align 4
kairos_host_switch_to:                /* called: [rsp] = resume address */
    .cfi_startproc
    pushq   %rbp
    pushq   %rbx
    pushq   %r12
    pushq   %r13
    pushq   %r14
    pushq   %r15
    movq    %rsp, (%rdi)            /* the outgoing handle: its frame starts here */
    movq    %rsi, %rsp
    popq    %r15
    popq    %r14
    popq    %r13
    popq    %r12
    popq    %rbx
    popq    %rbp
    unmask_ret
    .cfi_endproc
    .size   kairos_host_switch_to, .-kairos_host_switch_to

/* The push order above and in kairos_host_switch_now is the frame layout
 * of frame.hpp: checked here, where the order is written. */
.if KAIROS_X64_R15 != 0x00 || KAIROS_X64_R14 != 0x08 || KAIROS_X64_R13 != 0x10
    .error "switch.S: frame.hpp's r15/r14/r13 offsets are not the push order"
.endif
.if KAIROS_X64_R12 != 0x18 || KAIROS_X64_RBX != 0x20 || KAIROS_X64_RBP != 0x28
    .error "switch.S: frame.hpp's r12/rbx/rbp offsets are not the push order"
.endif
.if KAIROS_X64_RIP != 0x30 || KAIROS_X64_FRAME != 0x38
    .error "switch.S: frame.hpp's resume address or frame size is not the push order"
.endif

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

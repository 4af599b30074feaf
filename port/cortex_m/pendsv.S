/* SPDX-License-Identifier: MIT */
/* Cortex-M context switch: PendSV_Handler, ARMv6-M, ARMv7-M and ARMv8-M
 * mainline variants; on ARMv6-M also SVC_Handler, kernel::yield()'s switch
 * (same frame, see below).
 *
 * Threads run in thread mode on PSP; handlers (and this one) on MSP.
 * PendSV has the lowest priority, so it runs only when no other handler is
 * active: requested from a thread it runs at once, from an ISR it
 * tail-chains at interrupt exit. It saves the outgoing thread's
 * callee-saved registers below its hardware-stacked frame, calls
 * kairos_sched_switch(saved sp) with kairos' mask taken (mask.hpp: BASEPRI
 * on ARMv7-M and ARMv8-M mainline, PRIMASK on ARMv6-M), and restores the
 * thread whose saved sp that returns (possibly the same one).
 *
 * Saved frame (context handle = its lowest address; offsets in frame.hpp,
 * static_assert'ed against stack_init()'s structs in port.cpp):
 *     +0  r4 r5 r6 r7 r8 r9 r10 r11                        (ARMv6-M)
 *     +0  r4 r5 r6 r7 r8 r9 r10 r11   +32  EXC_RETURN      (ARMv7-M)
 *     +0  PSPLIM  +4  r4 ... r11      +36  EXC_RETURN      (ARMv8-M mainline)
 *   then, if EXC_RETURN bit 4 is 0 (the thread used the FPU, extended
 *   frame; FPU builds only), s16-s31 above it, 16 words;
 *   then the hardware frame: r0-r3 r12 lr pc xPSR (+ s0-s15 FPSCR if extended).
 * Keeping EXC_RETURN per thread is what makes lazy FPU stacking work: a
 * thread that never touched the FPU has a basic frame and costs nothing.
 * ARMv6-M has no FPU, so every thread returns with the same EXC_RETURN
 * (thread mode, PSP, basic frame): PendSV keeps the value it entered with
 * on the handler stack (MSP) and returns with it, whichever thread it
 * resumes.
 * On ARMv8-M mainline each thread also keeps its own PSPLIM, the hardware
 * stack limit (port.cpp stack_init(): its stack bottom plus
 * cortex_m::stack_guard); the boot context keeps the reset value 0 (none).
 */
#include "frame.hpp"
#include "mask.hpp"

    .syntax unified
    .thumb

#if defined(__ARM_ARCH_6M__)
    /* v6m_save: r1 = the outgoing thread's frame; stores r4-r11 there
     * (no stm reaches r8-r11: they go through r4-r7). */
    .macro  v6m_save
    stmia   r1!, {r4-r7}            /* +0:  r4-r7 */
    mov     r4, r8
    mov     r5, r9
    mov     r6, r10
    mov     r7, r11
    stmia   r1!, {r4-r7}            /* +16: r8-r11 */
    .endm

    /* v6m_restore: r0 = the next thread's saved frame; restores r4-r11 and
     * PSP from it and returns from the exception with the EXC_RETURN on top
     * of MSP. PendSV_Handler's and SVC_Handler's common end. */
    .macro  v6m_restore
    mov     r1, r0
    adds    r1, #KAIROS_CM_R8
    ldmia   r1!, {r4-r7}            /* r1 = end of frame */
    mov     r8, r4
    mov     r9, r5
    mov     r10, r6
    mov     r11, r7
    ldmia   r0!, {r4-r7}
    msr     psp, r1
    pop     {pc}                    /* exception return into the next thread */
    .endm
#endif

    .section .text.PendSV_Handler, "ax", %progbits
    /* Weak: a firmware without the kernel links this file (start_scheduler()
     * and the console share port.cpp) but must not pull in the scheduler and
     * its thread table. ld turns a bl to an undefined weak symbol into a nop,
     * so r0 stays the outgoing frame and the same thread resumes; without
     * the kernel nothing pends PendSV anyway. */
    .weak   kairos_sched_switch
    .global PendSV_Handler
    .type   PendSV_Handler, %function
    .thumb_func
PendSV_Handler:
#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__) || defined(__ARM_ARCH_8M_MAIN__)
#  if KAIROS_CM_HAS_PSPLIM
    /* stmdb/ldmia below store r2, r4-r11, lr at ascending addresses. */
    .if KAIROS_CM_PSPLIM != 0 || KAIROS_CM_R4 != 4 || KAIROS_CM_EXC_RETURN != 36
    .error "pendsv.S: frame.hpp does not match the register lists"
    .endif
#  else
    .if KAIROS_CM_R4 != 0 || KAIROS_CM_EXC_RETURN != 32
    .error "pendsv.S: frame.hpp does not match the register lists"
    .endif
#  endif
    mrs     r0, psp                 /* r0 = outgoing thread's stack */
#  if KAIROS_CM_HAS_PSPLIM
    mrs     r2, psplim              /* outgoing thread's stack limit */
#  endif
#  if defined(__ARM_FP)
    /* A branch rather than an IT block: a thread without FPU context (the
     * common case) then executes two instructions here, not three. */
    tst     lr, #KAIROS_CM_EXC_RETURN_FTYPE /* clear: extended frame */
    bne     1f
    vstmdb  r0!, {s16-s31}          /* also triggers the lazy s0-s15 stacking */
1:
#  endif
#  if KAIROS_CM_HAS_PSPLIM
    stmdb   r0!, {r2, r4-r11, lr}   /* PSPLIM, callee-saved, EXC_RETURN */
#  else
    stmdb   r0!, {r4-r11, lr}       /* callee-saved + EXC_RETURN */
#  endif
#  if KAIROS_CM_HAS_BASEPRI
    movs    r1, #KAIROS_MAX_SYSCALL_PRIO
    msr     basepri, r1             /* kairos' mask (mask.hpp) */
    bl      kairos_sched_switch     /* r0 = next thread's saved sp */
    movs    r1, #0
    msr     basepri, r1             /* PendSV only runs with BASEPRI clear */
#  else
    cpsid   i
    bl      kairos_sched_switch     /* r0 = next thread's saved sp */
    cpsie   i                       /* PendSV only runs with PRIMASK clear */
#  endif
#  if KAIROS_CM_HAS_PSPLIM
    ldmia   r0!, {r2, r4-r11, lr}
#  else
    ldmia   r0!, {r4-r11, lr}
#  endif
#  if defined(__ARM_FP)
    tst     lr, #KAIROS_CM_EXC_RETURN_FTYPE
    bne     2f
    vldmia  r0!, {s16-s31}
2:
#  endif
#  if KAIROS_CM_HAS_PSPLIM
    /* Limit first: MSR to PSPLIM/PSP checks nothing, and the incoming
     * thread's PSP is above its own limit. */
    msr     psplim, r2
#  endif
    msr     psp, r0
    bx      lr                      /* exception return into the next thread */
#elif defined(__ARM_ARCH_6M__)
    .if KAIROS_CM_R4 != 0 || KAIROS_CM_R8 != 16 || KAIROS_CM_SW_FRAME != 32
    .error "pendsv.S: frame.hpp does not match the stores below"
    .endif
    /* No stmdb, and stm/ldm reach only r0-r7: move r8-r11 through r4-r7. */
    push    {lr}                    /* EXC_RETURN, on MSP: the same for every thread */
    mrs     r0, psp
    subs    r0, #KAIROS_CM_SW_FRAME
    mov     r1, r0
    v6m_save
    cpsid   i
    bl      kairos_sched_switch
    cpsie   i
    v6m_restore
#else
#  error "pendsv.S: not an ARMv6-M, ARMv7-M or ARMv8-M mainline core"
#endif
    .size   PendSV_Handler, . - PendSV_Handler

#if defined(__ARM_ARCH_6M__)
    /* SVC_Handler: kernel::yield()'s switch on ARMv6-M (port::yield_trap(),
     * an svc from a thread with PRIMASK clear). It decides first, with
     * kairos_sched_yield(), passing the frame address the save below will
     * use; on nullptr (same thread, or the full decision pended as PendSV,
     * which tail-chains after this returns) it saves and restores nothing.
     * Otherwise it saves the same frame as PendSV_Handler and restores as
     * it does. SVC keeps its reset priority (0): the decision runs under
     * PRIMASK anyway, and PendSV, pended meanwhile, runs after it. Weak
     * reference as above: a nop leaves r0 the outgoing frame, which is then
     * saved and restored. */
    .weak   kairos_sched_yield
    .global SVC_Handler
    .type   SVC_Handler, %function
    .thumb_func
SVC_Handler:
    mrs     r0, psp
    subs    r0, #KAIROS_CM_SW_FRAME /* the outgoing frame, once saved */
    push    {r0, lr}                /* that frame; EXC_RETURN as in PendSV_Handler */
    cpsid   i
    bl      kairos_sched_yield
    cpsie   i
    pop     {r1}                    /* the outgoing frame */
    cmp     r0, #0
    beq     1f                      /* no switch here */
    v6m_save
    v6m_restore
1:
    pop     {pc}
    .size   SVC_Handler, . - SVC_Handler
#endif

/* kairos_cortex_m_thread_to_psp(msp_top): the calling thread-mode code
 * continues on the same stack, now through PSP, and handlers get their own
 * stack at msp_top. Called once, by start_scheduler(), so the boot context
 * (main) is a thread PendSV can save and resume like any other. It lives
 * in this file so that linking start_scheduler() always links the strong
 * PendSV_Handler above (the startup's is weak). Thumb-1 encoding: runs on
 * every variant. */
    .section .text.kairos_cortex_m_thread_to_psp, "ax", %progbits
    .global kairos_cortex_m_thread_to_psp
    .type   kairos_cortex_m_thread_to_psp, %function
    .thumb_func
kairos_cortex_m_thread_to_psp:
    mrs     r1, msp
    msr     psp, r1                 /* same stack, now as PSP */
    mrs     r1, control
    movs    r2, #2
    orrs    r1, r2                  /* SPSEL: thread mode uses PSP (keep FPCA) */
    msr     control, r1
    isb
    msr     msp, r0                 /* handlers: their own stack */
    bx      lr
    .size   kairos_cortex_m_thread_to_psp, . - kairos_cortex_m_thread_to_psp

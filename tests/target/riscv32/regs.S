/* SPDX-License-Identifier: MIT */
/* Register-conformance helpers for the RV32 port (the contract is in
 * tests/target/regs_target.cpp): kt_regs_switch(seed, out, fpu) and
 * kt_regs_spin(seed, out, fpu, stop); fpu is ignored (no F extension).
 *
 * ILP32: s0-s11 callee-saved, ra the return address, sp the stack pointer.
 * Both save the caller's ra and s0-s11, load ra from seed[0] and s0-s11
 * from seed[1..12] (a trap frame keeps ra like any other register), and
 * store sp to out[14].
 * Then
 *   kt_regs_switch takes the switch the caller's kernel operation left
 *     pending (msip), with the seeded values live, on its two ways in,
 *     alternately (calls 0, 1, 4, 5, ... and 2, 3, 6, 7, ..., so two threads
 *     switching in turn both take both): on the first it opens the mask
 *     (mstatus.MIE), so the software interrupt is taken right there (the
 *     trap); on the second it does what irq_restore() does, calling
 *     kairos_riscv_switch(), which returns unmasked (the call: ra is then the call's return address, so
 *     the seeded ra is loaded again after it, from seed[0], kept at 56(sp));
 *   kt_regs_spin spins with the mask open until *stop != 0 (a3): the timer
 *     interrupt and the switch it requests preempt it anywhere in the loop.
 * Then they store ra to out[0], s0-s11 to out[1..12] and sp to out[13]
 * (out[13] == out[14]: the thread came back on its own stack, where the
 * frame below is), restore the caller's and return with the mask open.
 *
 * Frame (64 bytes, sp 16-byte aligned): ra s0-s11 out seed at 0-56.
 */
    .bss
    .balign 4
kt_regs_switch_calls:               /* kt_regs_switch calls so far */
    .word   0

    .text

    .macro  enter
    addi    sp, sp, -64
    sw      ra, 0(sp)
    sw      s0, 4(sp)
    sw      s1, 8(sp)
    sw      s2, 12(sp)
    sw      s3, 16(sp)
    sw      s4, 20(sp)
    sw      s5, 24(sp)
    sw      s6, 28(sp)
    sw      s7, 32(sp)
    sw      s8, 36(sp)
    sw      s9, 40(sp)
    sw      s10, 44(sp)
    sw      s11, 48(sp)
    sw      a1, 52(sp)              /* out */
    sw      sp, 56(a1)              /* out[14]: sp before */
    lw      ra, 0(a0)
    lw      s0, 4(a0)
    lw      s1, 8(a0)
    lw      s2, 12(a0)
    lw      s3, 16(a0)
    lw      s4, 20(a0)
    lw      s5, 24(a0)
    lw      s6, 28(a0)
    lw      s7, 32(a0)
    lw      s8, 36(a0)
    lw      s9, 40(a0)
    lw      s10, 44(a0)
    lw      s11, 48(a0)
    .endm
    .macro  leave
    lw      a1, 52(sp)              /* out */
    sw      ra, 0(a1)
    sw      s0, 4(a1)
    sw      s1, 8(a1)
    sw      s2, 12(a1)
    sw      s3, 16(a1)
    sw      s4, 20(a1)
    sw      s5, 24(a1)
    sw      s6, 28(a1)
    sw      s7, 32(a1)
    sw      s8, 36(a1)
    sw      s9, 40(a1)
    sw      s10, 44(a1)
    sw      s11, 48(a1)
    sw      sp, 52(a1)              /* out[13]: sp after */
    lw      ra, 0(sp)
    lw      s0, 4(sp)
    lw      s1, 8(sp)
    lw      s2, 12(sp)
    lw      s3, 16(sp)
    lw      s4, 20(sp)
    lw      s5, 24(sp)
    lw      s6, 28(sp)
    lw      s7, 32(sp)
    lw      s8, 36(sp)
    lw      s9, 40(sp)
    lw      s10, 44(sp)
    lw      s11, 48(sp)
    addi    sp, sp, 64
    ret
    .endm

    .global kt_regs_switch
    .type   kt_regs_switch, @function
    .align  2
kt_regs_switch:
    lui     t0, %hi(kt_regs_switch_calls)
    lw      t1, %lo(kt_regs_switch_calls)(t0)
    addi    t2, t1, 1
    sw      t2, %lo(kt_regs_switch_calls)(t0)
    andi    t1, t1, 2               /* pairs of calls: each thread of a pair alternates */
    enter
    sw      a0, 56(sp)              /* seed */
    bnez    t1, 1f
    csrsi   mstatus, 8              /* MIE: the pending software interrupt is taken here */
    nop
    j       2f
1:  call    kairos_riscv_switch     /* the switch irq_restore() makes */
    lw      t0, 56(sp)
    lw      ra, 0(t0)               /* the seeded ra, which the call replaced */
2:  leave
    .size   kt_regs_switch, . - kt_regs_switch

    .global kt_regs_spin
    .type   kt_regs_spin, @function
    .align  2
kt_regs_spin:
    enter
    csrsi   mstatus, 8              /* MIE */
1:  lw      a2, 0(a3)
    beqz    a2, 1b
    leave
    .size   kt_regs_spin, . - kt_regs_spin

/* SPDX-License-Identifier: MIT */
/* Register-conformance helpers for the lx106 port (the contract is in
 * tests/target/regs_target.cpp): kt_regs_switch(seed, out, fpu) and
 * kt_regs_spin(seed, out, fpu, stop); fpu is ignored (no FPU).
 *
 * CALL0 ABI: a12-a15 callee-saved, a0 the return address, a1 the stack
 * pointer. Both load a12-a15 from seed[1..4] and a0 from seed[0] (every
 * switch here is the software interrupt, which saves a0 like any other
 * register), and store a1 to out[6]. Then
 *   kt_regs_switch opens the mask (rsil 0), so the software interrupt the
 *     caller's kernel operation left pending (request_switch()) is taken
 *     right there, with the seeded values live;
 *   kt_regs_spin spins with the mask open until *stop != 0 (a5): the
 *     timer interrupt and the switch it requests preempt it anywhere in
 *     the loop.
 * Then they store a0 to out[0], a12-a15 to out[1..4] and a1 to out[5]
 * (out[5] == out[6]: the thread came back on its own stack, where the
 * frame below is), restore the caller's and return.
 *
 * Frame (32 bytes, a1 16-byte aligned): a0 a12 a13 a14 a15 out at 0-20.
 */
    .text
    .literal_position

    .macro  enter
    addi    a1, a1, -32
    s32i    a0, a1, 0
    s32i    a12, a1, 4
    s32i    a13, a1, 8
    s32i    a14, a1, 12
    s32i    a15, a1, 16
    s32i    a3, a1, 20              /* out */
    s32i    a1, a3, 24              /* out[6]: a1 before */
    l32i    a0, a2, 0
    l32i    a12, a2, 4
    l32i    a13, a2, 8
    l32i    a14, a2, 12
    l32i    a15, a2, 16
    .endm
    .macro  leave
    l32i    a2, a1, 20              /* out */
    s32i    a0, a2, 0
    s32i    a12, a2, 4
    s32i    a13, a2, 8
    s32i    a14, a2, 12
    s32i    a15, a2, 16
    s32i    a1, a2, 20              /* out[5]: a1 after */
    l32i    a0, a1, 0
    l32i    a12, a1, 4
    l32i    a13, a1, 8
    l32i    a14, a1, 12
    l32i    a15, a1, 16
    addi    a1, a1, 32
    ret
    .endm

    .global kt_regs_switch
    .type   kt_regs_switch, @function
    .align  4
kt_regs_switch:
    enter
    rsil    a2, 0                   /* the pending software interrupt is taken here */
    rsync
    leave
    .size   kt_regs_switch, . - kt_regs_switch

    .global kt_regs_spin
    .type   kt_regs_spin, @function
    .align  4
kt_regs_spin:
    enter
1:  memw
    l32i    a2, a5, 0
    beqz    a2, 1b
    leave
    .size   kt_regs_spin, . - kt_regs_spin

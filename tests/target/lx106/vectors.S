/* lx106 exception vectors (XEA2, CALL0 ABI, no register windows).
 *
 * _start points VECBASE here. Offsets from the lx106 configuration: kernel
 * 0x30, user 0x50, double exception 0x70; PS.UM=1 sends level-1 interrupts
 * and ordinary exceptions to the user vector. It saves the interrupted
 * context on the interrupted stack and calls
 * kairos_lx106_user_exception(EXCCAUSE) (startup.cpp) with PS.EXCM still
 * set, so level-1 interrupts do not nest, then returns with rfe.
 *
 * Frame (64 bytes below the interrupted a1):
 *   0..52  a2..a15   56  a0 (from EXCSAVE1)   60  SAR
 */
    .section .vectors, "ax"
    .align  1024
    .global _vectors
_vectors:
    .org    0x30                /* kernel exception: not used (PS.UM=1) */
    j       _unexpected_vector
    .org    0x50                /* user exception / level-1 interrupt */
    wsr     a0, excsave1
    j       _user_exception
    .org    0x70                /* double exception */
    j       _unexpected_vector

    .section .text._user_exception, "ax"
    .align  4
_user_exception:
    addi    a1, a1, -64
    s32i    a2, a1, 0
    s32i    a3, a1, 4
    s32i    a4, a1, 8
    s32i    a5, a1, 12
    s32i    a6, a1, 16
    s32i    a7, a1, 20
    s32i    a8, a1, 24
    s32i    a9, a1, 28
    s32i    a10, a1, 32
    s32i    a11, a1, 36
    s32i    a12, a1, 40
    s32i    a13, a1, 44
    s32i    a14, a1, 48
    s32i    a15, a1, 52
    rsr     a2, excsave1
    s32i    a2, a1, 56
    rsr     a2, sar
    s32i    a2, a1, 60
    rsr     a2, exccause        /* argument: why we are here */
    movi    a0, kairos_lx106_user_exception
    callx0  a0
    l32i    a2, a1, 60
    wsr     a2, sar
    l32i    a0, a1, 56
    l32i    a2, a1, 0
    l32i    a3, a1, 4
    l32i    a4, a1, 8
    l32i    a5, a1, 12
    l32i    a6, a1, 16
    l32i    a7, a1, 20
    l32i    a8, a1, 24
    l32i    a9, a1, 28
    l32i    a10, a1, 32
    l32i    a11, a1, 36
    l32i    a12, a1, 40
    l32i    a13, a1, 44
    l32i    a14, a1, 48
    l32i    a15, a1, 52
    addi    a1, a1, 64
    rfe

    .align  4
_unexpected_vector:
    movi    a2, 0xFFFFFFFF      /* no EXCCAUSE: report as unexpected */
    movi    a0, kairos_lx106_user_exception
    callx0  a0
1:  j       1b

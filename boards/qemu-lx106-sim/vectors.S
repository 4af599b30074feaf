// SPDX-License-Identifier: MIT
/* lx106 exception vectors (XEA2, CALL0 ABI, no register windows).
 *
 * _start points VECBASE here. Offsets from the lx106 configuration: kernel
 * 0x30, user 0x50, double exception 0x70; PS.UM=1 sends level-1 interrupts
 * and ordinary exceptions to the user vector, which hands them to the
 * port (port/xtensa_lx106/switch.S: full save, interrupt dispatch, the
 * context switch, exceptions to kairos_lx106_exception in startup.cpp).
 */
    .section .vectors, "ax"
    .align  1024
    .global _vectors
_vectors:
    .org    0x30                /* kernel exception: not used (PS.UM=1) */
    j       _unexpected_vector
    .org    0x50                /* user exception / level-1 interrupt */
    wsr     a0, excsave1
    j       kairos_lx106_user_vector
    .org    0x70                /* double exception */
    j       _unexpected_vector

    .section .text._unexpected_vector, "ax"
    .align  4
_unexpected_vector:
    movi    a2, 0xFFFFFFFF      /* no EXCCAUSE: report as unexpected */
    movi    a3, 0               /* and no saved frame */
    movi    a0, kairos_lx106_exception
    callx0  a0
1:  j       1b

// SPDX-License-Identifier: MIT
/* lx106 reset stub and entry.
 *
 * QEMU's `sim` machine starts the lx106 at its static reset vector,
 * 0x50000000 (sysrom0), not at the ELF entry. .reset sits there: it jumps
 * over an aligned literal holding _start, loads it (l32r reaches only
 * backwards) and jumps. _start sets the stack pointer and PS, then calls
 * kairos_lx106_start() (startup.cpp), which never returns.
 *
 * PS after reset: INTLEVEL 15, EXCM 1. We set UM (user vector mode: level-1
 * interrupts go to the user exception vector), EXCM 0, INTLEVEL 0; nothing
 * fires yet because INTENABLE is 0. VECBASE moves to our vectors.S. CALL0 ABI: a0 return address, a1 stack.
 */
    .section .reset, "ax"
    .global _reset
_reset:
    j       1f
    .align  4
2:  .word   _start
1:  l32r    a0, 2b
    jx      a0

    .section .text._start, "ax"
    .global _start
    .align  4
_start:
    movi    a1, _estack         /* stack: top of data RAM, grows down */
    movi    a0, _vectors        /* exception vectors: vectors.S */
    wsr     a0, vecbase
    movi    a0, 0x20            /* PS: UM=1, EXCM=0, INTLEVEL=0 */
    wsr     a0, ps
    rsync
    movi    a0, kairos_lx106_start
    callx0  a0
3:  j       3b

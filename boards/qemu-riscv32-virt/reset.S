/* SPDX-License-Identifier: MIT */
/* RV32 entry for QEMU `-M virt -bios none`: the hart starts here, at the
 * start of DRAM (virt.ld), in machine mode with mstatus.MIE = 0. Set gp
 * (the linker's global pointer; not relaxed against itself), the stack,
 * mtvec (direct mode) to the port's trap entry, mscratch = 0 (not in a
 * handler: port::in_isr()), no interrupt enabled in mie and mstatus.MIE
 * set (main is a thread with interrupts enabled, as on Cortex-M), then call
 * kairos_riscv_start() (startup.cpp), which never returns. */
    .section .text.start, "ax", @progbits
    .global _start
    .type   _start, @function
_start:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    la      sp, _estack             /* grows down from the end of RAM */
    la      t0, kairos_riscv_trap_entry
    csrw    mtvec, t0               /* BASE 4-byte aligned, MODE 0: direct */
    csrw    mscratch, zero
    csrw    mie, zero
    csrsi   mstatus, 0x8            /* MIE: threads run unmasked; mie decides */
    call    kairos_riscv_start
1:  wfi
    j       1b
    .size   _start, . - _start

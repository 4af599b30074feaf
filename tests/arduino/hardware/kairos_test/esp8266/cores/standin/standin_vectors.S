// SPDX-License-Identifier: MIT
/* The stand-in core's reset, vectors and level-1 interrupt entry: the QEMU
 * lx106 board's reset stub and vector table, and the lx106 port's user
 * vector (its interrupt and exception entry; without the kernel it never
 * switches), as the framework's own would be on an ESP8266. */
#include "../../../../../../../boards/qemu-lx106-sim/reset.S"
#include "../../../../../../../boards/qemu-lx106-sim/vectors.S"
#include "../../../../../../../port/xtensa_lx106/switch.S"

// SPDX-License-Identifier: MIT
// kairos/port_config.hpp for the stand-in core's own files (the QEMU
// Cortex-M board's startup and semihosting, compiled without the library):
// the port the library selects on Arm, as arduino/src/kairos/port_config.hpp
// says. The sketch and the library find the library's copy first.
#pragma once

#define KAIROS_PORT_NAME "cortex_m"
#define KAIROS_PORT_IRQ_INLINE 1
// The library's default BASEPRI threshold (arduino/src/kairos/port_config.hpp):
// the inline masks (kairos_port_irq.hpp) need it.
#ifndef KAIROS_MAX_SYSCALL_PRIO
#  define KAIROS_MAX_SYSCALL_PRIO 0x40
#endif

// SPDX-License-Identifier: MIT
// kairos/port_config.hpp of the Arduino library: CMake generates this file
// for the port it builds (cmake/port_config.hpp.in); the Arduino build has
// no configure step, so the port follows the core being compiled for.
#pragma once

#if defined(ARDUINO_ARCH_ESP8266)
#  define KAIROS_PORT_NAME "framework_esp8266"
#  define KAIROS_PORT_IRQ_INLINE 1
#  define KAIROS_PORT_IDLE_IN_SWITCH 1
#elif defined(__arm__) && defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M'
#  define KAIROS_PORT_NAME "cortex_m"
#  define KAIROS_PORT_IRQ_INLINE 1
#  define KAIROS_PORT_IDLE_IN_SWITCH 0
// The BASEPRI threshold (docs/porting.md, "Interrupt priorities and handlers"): a sketch
// may set another one with -DKAIROS_MAX_SYSCALL_PRIO in its build flags.
#  ifndef KAIROS_MAX_SYSCALL_PRIO
#    define KAIROS_MAX_SYSCALL_PRIO 0x40
#  endif
#else
#  error "kairos: no port for this Arduino core (library.properties lists the tested architectures)"
#endif

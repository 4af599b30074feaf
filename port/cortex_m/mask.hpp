// SPDX-License-Identifier: MIT
// Which interrupt mask kairos' critical sections use on this core, shared by
// pendsv.S and port.cpp. Usable from assembly: only #defines outside
// __cplusplus.
//
// ARMv7-M and ARMv8-M mainline: BASEPRI = KAIROS_MAX_SYSCALL_PRIO (the CMake
// cache option, in kairos/port_config.hpp). Interrupts more urgent than it
// (numerically lower priority values) are never masked by kairos and must not
// call kairos; PendSV and SysTick are at the lowest priority, always masked.
// ARMv6-M has no BASEPRI: PRIMASK masks every configurable interrupt.
#pragma once

#include <kairos/port_config.hpp>

#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__) || defined(__ARM_ARCH_8M_MAIN__)
#  define KAIROS_CM_HAS_BASEPRI 1
#else
#  define KAIROS_CM_HAS_BASEPRI 0
#endif

#if KAIROS_MAX_SYSCALL_PRIO < 1 || KAIROS_MAX_SYSCALL_PRIO > 0xFF
#  error "KAIROS_MAX_SYSCALL_PRIO must be in 0x01..0xFF (0 would disable BASEPRI masking)"
#endif

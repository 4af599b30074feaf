// SPDX-License-Identifier: MIT
// kairos/port_config.hpp of the Arduino library: the Arduino build has no
// configure step, so the port follows the core being compiled for, and the
// record for it is the template's rendering for that port
// (port_config_<port>.hpp, written by scripts/make-arduino-lib with
// scripts/make-port-config from cmake/port_config.hpp.in, as CMake renders
// it).
#pragma once

#if defined(ARDUINO_ARCH_ESP8266)
#  include "port_config_framework_esp8266.hpp"
#elif defined(__arm__) && defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M'
// The BASEPRI threshold (docs/porting.md, "Interrupt priorities and
// handlers") is the rendering's default; a sketch may set another one with
// -DKAIROS_MAX_SYSCALL_PRIO in its build flags, which then wins.
#  if defined(KAIROS_MAX_SYSCALL_PRIO)
#    pragma push_macro("KAIROS_MAX_SYSCALL_PRIO")
#    undef KAIROS_MAX_SYSCALL_PRIO
#    include "port_config_cortex_m.hpp"
#    undef KAIROS_MAX_SYSCALL_PRIO
#    pragma pop_macro("KAIROS_MAX_SYSCALL_PRIO")
#  else
#    include "port_config_cortex_m.hpp"
#  endif
#else
#  error "kairos: no port for this Arduino core (library.properties lists the tested architectures)"
#endif

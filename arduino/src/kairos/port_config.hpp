// SPDX-License-Identifier: MIT
// kairos/port_config.hpp of the Arduino library: CMake generates this file
// for the port it builds (cmake/port_config.hpp.in); the Arduino build has
// no configure step, so the port follows the core being compiled for.
#pragma once

#if defined(ARDUINO_ARCH_ESP8266)
#  define KAIROS_PORT_NAME "framework_esp8266"
#  define KAIROS_PORT_IRQ_INLINE 1
#elif defined(__arm__) && defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M'
#  define KAIROS_PORT_NAME "cortex_m"
#  define KAIROS_PORT_IRQ_INLINE 0
#else
#  error "kairos: no port for this Arduino core (library.properties lists the tested architectures)"
#endif

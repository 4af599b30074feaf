// SPDX-License-Identifier: MIT
// kairos_port_irq.hpp of the Arduino library: port.hpp includes
// <kairos_port_irq.hpp> for ports with inline masks; Arduino puts only src/
// on the include path, so this file forwards to the selected port's.
#pragma once

#if defined(ARDUINO_ARCH_ESP8266)
#  include "kairos_port/framework_esp8266/kairos_port_irq.hpp"
#elif defined(__arm__) && defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M'
#  include "kairos_port/cortex_m/kairos_port_irq.hpp"
#endif

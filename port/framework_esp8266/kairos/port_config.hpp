// SPDX-License-Identifier: MIT
// kairos/port_config.hpp for builds without a CMake configure step that put
// port/framework_esp8266 on the include path (PlatformIO's extra script):
// the same record cmake/port_config.hpp.in generates for this port. A CMake
// build finds its generated copy first; both say the same.
#pragma once

#define KAIROS_PORT_NAME "framework_esp8266"

#define KAIROS_PORT_IRQ_INLINE 1

#define KAIROS_PORT_IDLE_IN_SWITCH 1

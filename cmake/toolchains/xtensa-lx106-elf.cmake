# SPDX-License-Identifier: MIT
# Toolchain for the ESP8266 core (Xtensa lx106, Debian gcc-xtensa-lx106).
#
# Debian's lx106 compiler ships no libstdc++ and no C++ headers at all: even
# <cstdint> is missing. kairos' core needs only freestanding, header-only
# parts of the C++ library (<atomic> <cstddef> <cstdint> <new> <type_traits>
# <utility>), so this file borrows them from the arm-none-eabi libstdc++ of
# the same GCC release (libstdc++-arm-none-eabi-dev, 12.2.1 vs 12.2.0). Those
# headers are target-neutral except bits/c++config.h; the armv6-m/soft-float
# multilib's copy describes a 32-bit little-endian core without hardware
# atomics, like lx106. The alternative, a hand-written shim of <atomic> and
# <type_traits>, would be a second implementation of the standard library to
# maintain and could differ subtly from it; the borrowed headers are the real
# thing. Nothing compiled (no .a) is borrowed. The rest is shared with the
# Cortex-M toolchain: bare-metal.cmake.
include(${CMAKE_CURRENT_LIST_DIR}/bare-metal.cmake)
set(CMAKE_SYSTEM_PROCESSOR xtensa)

set(KAIROS_MCU lx106 CACHE STRING "Xtensa core (only lx106)")
if(NOT KAIROS_MCU STREQUAL "lx106")
    message(FATAL_ERROR "xtensa-lx106-elf.cmake: KAIROS_MCU must be lx106, not ${KAIROS_MCU}")
endif()

set(KAIROS_LX106_CXX_HEADERS /usr/include/newlib/c++/12.2.1 CACHE PATH
    "libstdc++ headers borrowed for lx106 (from libstdc++-arm-none-eabi-dev)")
if(NOT EXISTS ${KAIROS_LX106_CXX_HEADERS}/atomic)
    message(FATAL_ERROR "xtensa-lx106-elf.cmake: no C++ headers at ${KAIROS_LX106_CXX_HEADERS}; "
                        "install libstdc++-arm-none-eabi-dev (scripts/install-deps targets)")
endif()

# -mlongcalls: iram and the reset section are far apart for call0's reach.
# -mtext-section-literals: literal pools next to the code, in executable RAM.
kairos_bare_metal_toolchain(PREFIX xtensa-lx106-elf-
    FLAGS "-mlongcalls -mtext-section-literals -ffreestanding -ffunction-sections -fdata-sections"
    CXX_FLAGS "-isystem ${KAIROS_LX106_CXX_HEADERS} \
-isystem ${KAIROS_LX106_CXX_HEADERS}/arm-none-eabi/thumb/v6-m/nofp"
    ASM_FLAGS "-mlongcalls -mtext-section-literals")

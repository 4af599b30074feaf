# SPDX-License-Identifier: MIT
# Toolchain for bare-metal Cortex-M (arm-none-eabi, Debian gcc-arm-none-eabi).
# KAIROS_MCU picks the core: cortex-m0 (armv6-m), cortex-m3 (armv7-m),
# cortex-m4f / cortex-m7 (armv7e-m, hard float), cortex-m33 (armv8-m
# mainline, hard float, secure state), cortex-m55 (armv8.1-m mainline,
# hard float and MVE, secure state). What every bare-metal
# firmware shares (no C library, sections, C++ without runtime support) is
# in bare-metal.cmake. KAIROS_CPU_FLAGS: the core's selection and ABI flags
# (tests/consumer gives them to an external firmware's own toolchain file).
include(${CMAKE_CURRENT_LIST_DIR}/bare-metal.cmake)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_TRY_COMPILE_PLATFORM_VARIABLES KAIROS_MCU)

if(NOT KAIROS_MCU)
    set(KAIROS_MCU cortex-m3)
endif()
set(KAIROS_MCU "${KAIROS_MCU}" CACHE STRING "Cortex-M core: cortex-m0 cortex-m3 cortex-m4f cortex-m7 cortex-m33 cortex-m55")
if(KAIROS_MCU STREQUAL "cortex-m0")
    set(KAIROS_CPU_FLAGS "-mthumb -mcpu=cortex-m0 -mfloat-abi=soft")
elseif(KAIROS_MCU STREQUAL "cortex-m3")
    set(KAIROS_CPU_FLAGS "-mthumb -mcpu=cortex-m3 -mfloat-abi=soft")
elseif(KAIROS_MCU STREQUAL "cortex-m4f")
    set(KAIROS_CPU_FLAGS "-mthumb -mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16")
elseif(KAIROS_MCU STREQUAL "cortex-m7")
    set(KAIROS_CPU_FLAGS "-mthumb -mcpu=cortex-m7 -mfloat-abi=hard -mfpu=fpv5-d16")
elseif(KAIROS_MCU STREQUAL "cortex-m33")
    set(KAIROS_CPU_FLAGS "-mthumb -mcpu=cortex-m33 -mfloat-abi=hard -mfpu=fpv5-sp-d16")
elseif(KAIROS_MCU STREQUAL "cortex-m55")
    set(KAIROS_CPU_FLAGS "-mthumb -mcpu=cortex-m55 -mfloat-abi=hard")  # -mfpu=auto: FPv5-D16 + MVE
else()
    message(FATAL_ERROR "arm-none-eabi.cmake: KAIROS_MCU=${KAIROS_MCU} is not a Cortex-M core "
                        "(cortex-m0 cortex-m3 cortex-m4f cortex-m7 cortex-m33 cortex-m55)")
endif()

# Not -ffreestanding: it implies -fno-builtin, and then a 16-byte memcpy is
# a call to the firmware's byte loop instead of four loads and stores (the
# kernel's stack-canary check in every switch: ~100 instructions). The
# headers come from newlib/libstdc++-arm-none-eabi-dev; nothing is linked
# from them (-nostdlib), the firmware supplies memcpy/memset/memmove/memcmp.
kairos_bare_metal_toolchain(PREFIX arm-none-eabi-
    FLAGS "${KAIROS_CPU_FLAGS} -ffunction-sections -fdata-sections"
    ASM_FLAGS "${KAIROS_CPU_FLAGS}")

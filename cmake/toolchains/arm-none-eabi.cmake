# Toolchain for bare-metal Cortex-M (arm-none-eabi, Debian gcc-arm-none-eabi).
# KAIROS_MCU picks the core: cortex-m0 (armv6-m), cortex-m3 (armv7-m),
# cortex-m4f / cortex-m7 (armv7e-m, hard float). No C library is linked: the
# firmware brings its own startup (tests/target), the compiler's libgcc
# supplies only arithmetic helpers.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)

set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
set(CMAKE_OBJCOPY arm-none-eabi-objcopy CACHE FILEPATH "")
set(CMAKE_SIZE arm-none-eabi-size CACHE FILEPATH "")
# A test program cannot link without a linker script: check the compiler
# with a static library instead.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_TRY_COMPILE_PLATFORM_VARIABLES KAIROS_MCU)

if(NOT KAIROS_MCU)
    set(KAIROS_MCU cortex-m3)
endif()
set(KAIROS_MCU "${KAIROS_MCU}" CACHE STRING "Cortex-M core: cortex-m0 cortex-m3 cortex-m4f cortex-m7")
if(KAIROS_MCU STREQUAL "cortex-m0")
    set(_kairos_cpu "-mcpu=cortex-m0 -mfloat-abi=soft")
elseif(KAIROS_MCU STREQUAL "cortex-m3")
    set(_kairos_cpu "-mcpu=cortex-m3 -mfloat-abi=soft")
elseif(KAIROS_MCU STREQUAL "cortex-m4f")
    set(_kairos_cpu "-mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16")
elseif(KAIROS_MCU STREQUAL "cortex-m7")
    set(_kairos_cpu "-mcpu=cortex-m7 -mfloat-abi=hard -mfpu=fpv5-d16")
else()
    message(FATAL_ERROR "arm-none-eabi.cmake: KAIROS_MCU=${KAIROS_MCU} is not a Cortex-M core "
                        "(cortex-m0 cortex-m3 cortex-m4f cortex-m7)")
endif()

# -ffunction/data-sections + --gc-sections: firmware keeps only what it calls.
# Not -ffreestanding: it implies -fno-builtin, and then a 16-byte memcpy is
# a call to the firmware's byte loop instead of four loads and stores (the
# kernel's stack-canary check in every switch: ~100 instructions). The
# headers come from newlib/libstdc++-arm-none-eabi-dev; nothing is linked
# from them (-nostdlib), the firmware supplies memcpy/memset/memmove/memcmp.
set(_kairos_common "${_kairos_cpu} -mthumb -ffunction-sections -fdata-sections")
set(CMAKE_C_FLAGS_INIT "${_kairos_common}")
set(CMAKE_CXX_FLAGS_INIT "${_kairos_common} -fno-exceptions -fno-rtti -fno-threadsafe-statics -fno-use-cxa-atexit")
set(CMAKE_ASM_FLAGS_INIT "${_kairos_cpu} -mthumb")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-nostdlib -Wl,--gc-sections")
set(CMAKE_C_STANDARD_LIBRARIES "-lgcc" CACHE STRING "")
set(CMAKE_CXX_STANDARD_LIBRARIES "-lgcc" CACHE STRING "")

# Cross tools find target files only in the sysroot, host programs on PATH.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# SPDX-License-Identifier: MIT
# Toolchain for bare-metal RV32 in machine mode (ILP32, Debian
# gcc-riscv64-unknown-elf, whose multilibs include the rv32 ones).
# KAIROS_MCU picks the ISA: rv32imac (A extension: lock-free CAS, LR/SC),
# rv32imc (no A, as on the ESP32-C3: read-modify-write through the port's
# critical section, like ARMv6-M) and rv32imac_zbb (plus Zbb: clz, ctz,
# cpop in one instruction, so the run queue uses the reversed bitmap).
#
# Debian's RISC-V compiler ships no C++ headers (no libstdc++ package for
# it). As for lx106 (xtensa-lx106-elf.cmake), the freestanding, header-only
# part kairos needs (<atomic> <cstddef> <cstdint> <new> <type_traits>
# <utility>) is borrowed from the arm-none-eabi libstdc++ of the same GCC
# release; only bits/c++config.h is target-specific, and the multilib copy
# chosen matches the ISA's atomics: thumb/v7-m (hardware atomics) for the A
# extension, thumb/v6-m (none) without. The C headers those include
# (<stdint.h>, <string.h>) are picolibc's (picolibc-riscv64-unknown-elf).
# Nothing compiled is borrowed. libgcc comes from the rv32 multilib whose
# ISA the chosen one contains (Debian has no rv32imc or Zbb multilib: rv32im
# and rv32imac serve). The rest is shared: bare-metal.cmake.
include(${CMAKE_CURRENT_LIST_DIR}/bare-metal.cmake)
set(CMAKE_SYSTEM_PROCESSOR riscv32)
set(CMAKE_TRY_COMPILE_PLATFORM_VARIABLES KAIROS_MCU)

if(NOT KAIROS_MCU)
    set(KAIROS_MCU rv32imac)
endif()
set(KAIROS_MCU "${KAIROS_MCU}" CACHE STRING "RISC-V ISA: rv32imac rv32imc rv32imac_zbb")
if(KAIROS_MCU STREQUAL "rv32imac" OR KAIROS_MCU STREQUAL "rv32imac_zbb")
    set(_kairos_rv_libstdcxx_multilib thumb/v7-m/nofp)
    set(_kairos_rv_libgcc_march rv32imac)
elseif(KAIROS_MCU STREQUAL "rv32imc")
    set(_kairos_rv_libstdcxx_multilib thumb/v6-m/nofp)
    set(_kairos_rv_libgcc_march rv32im)
else()
    message(FATAL_ERROR "riscv32-unknown-elf.cmake: KAIROS_MCU=${KAIROS_MCU} is not one of "
                        "rv32imac rv32imc rv32imac_zbb")
endif()
# Zicsr (the CSR instructions) is its own extension to this binutils.
string(REPLACE "rv32imac" "rv32imac_zicsr" _kairos_rv_march ${KAIROS_MCU})
string(REPLACE "rv32imc" "rv32imc_zicsr" _kairos_rv_march ${_kairos_rv_march})
set(KAIROS_CPU_FLAGS "-march=${_kairos_rv_march} -mabi=ilp32 -mcmodel=medlow")

set(KAIROS_RISCV_CXX_HEADERS /usr/include/newlib/c++/12.2.1 CACHE PATH
    "libstdc++ headers borrowed for RISC-V (from libstdc++-arm-none-eabi-dev)")
set(KAIROS_RISCV_C_HEADERS /usr/lib/picolibc/riscv64-unknown-elf/include CACHE PATH
    "C headers for RISC-V (picolibc-riscv64-unknown-elf)")
if(NOT EXISTS ${KAIROS_RISCV_CXX_HEADERS}/atomic)
    message(FATAL_ERROR "riscv32-unknown-elf.cmake: no C++ headers at ${KAIROS_RISCV_CXX_HEADERS}; "
                        "install libstdc++-arm-none-eabi-dev (scripts/install-deps targets)")
endif()
if(NOT EXISTS ${KAIROS_RISCV_C_HEADERS}/stdint.h)
    message(FATAL_ERROR "riscv32-unknown-elf.cmake: no C headers at ${KAIROS_RISCV_C_HEADERS}; "
                        "install picolibc-riscv64-unknown-elf (scripts/install-deps riscv)")
endif()

# libgcc by full path: the driver would pick the rv64 default multilib for an
# ISA it has no multilib for.
execute_process(COMMAND riscv64-unknown-elf-gcc -march=${_kairos_rv_libgcc_march} -mabi=ilp32
                        -print-libgcc-file-name
                OUTPUT_VARIABLE KAIROS_RISCV_LIBGCC OUTPUT_STRIP_TRAILING_WHITESPACE)

# Not -ffreestanding, as for Cortex-M: builtins keep small memcpy inline.
kairos_bare_metal_toolchain(PREFIX riscv64-unknown-elf-
    FLAGS "${KAIROS_CPU_FLAGS} -ffunction-sections -fdata-sections -isystem ${KAIROS_RISCV_C_HEADERS}"
    CXX_FLAGS "-isystem ${KAIROS_RISCV_CXX_HEADERS} \
-isystem ${KAIROS_RISCV_CXX_HEADERS}/arm-none-eabi/${_kairos_rv_libstdcxx_multilib}"
    ASM_FLAGS "${KAIROS_CPU_FLAGS}")
set(CMAKE_C_STANDARD_LIBRARIES "${KAIROS_RISCV_LIBGCC}" CACHE STRING "" FORCE)
set(CMAKE_CXX_STANDARD_LIBRARIES "${KAIROS_RISCV_LIBGCC}" CACHE STRING "" FORCE)

# SPDX-License-Identifier: MIT
# Shared part of the bare-metal GCC toolchains (arm-none-eabi.cmake,
# xtensa-lx106-elf.cmake), included by them after they have chosen the core.
#
# kairos_bare_metal_toolchain(PREFIX <p> FLAGS <f> [CXX_FLAGS <c>] ASM_FLAGS <a>)
# names the cross tools <p>gcc, <p>g++ and <p>size (CMake finds <p>objcopy
# and the other binutils from the compiler's prefix itself) and sets the
# flags every kairos firmware shares: <f> for C and C++ (core selection and
# ABI, -ffunction/data-sections), plus for C++ no exceptions, RTTI,
# thread-safe statics or atexit registration (none of them has a runtime
# here) and <c>; <a> for the assembler. No C library is linked (-nostdlib):
# the firmware brings its own startup (tests/target), libgcc supplies only
# arithmetic helpers; --gc-sections keeps only what the firmware calls.
# A firmware may link newlib-nano or picolibc instead (docs/porting.md, "C
# library"): tests/target/libc drops -nostdlib for its directory.
# A macro, not a function: the variables belong to the toolchain file's scope.
macro(kairos_bare_metal_toolchain)
    cmake_parse_arguments(_kbm "" "PREFIX;FLAGS;CXX_FLAGS;ASM_FLAGS" "" ${ARGN})
    set(CMAKE_SYSTEM_NAME Generic)
    set(CMAKE_C_COMPILER ${_kbm_PREFIX}gcc)
    set(CMAKE_CXX_COMPILER ${_kbm_PREFIX}g++)
    set(CMAKE_ASM_COMPILER ${_kbm_PREFIX}gcc)
    set(CMAKE_SIZE ${_kbm_PREFIX}size CACHE FILEPATH "")
    # A test program cannot link without a linker script: check the
    # compiler with a static library instead.
    set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

    set(CMAKE_C_FLAGS_INIT "${_kbm_FLAGS}")
    set(CMAKE_CXX_FLAGS_INIT "${_kbm_FLAGS} -fno-exceptions -fno-rtti -fno-threadsafe-statics")
    string(APPEND CMAKE_CXX_FLAGS_INIT " -fno-use-cxa-atexit")
    if(_kbm_CXX_FLAGS)
        string(APPEND CMAKE_CXX_FLAGS_INIT " ${_kbm_CXX_FLAGS}")
    endif()
    set(CMAKE_ASM_FLAGS_INIT "${_kbm_ASM_FLAGS}")
    set(CMAKE_EXE_LINKER_FLAGS_INIT "-nostdlib -Wl,--gc-sections")
    set(CMAKE_C_STANDARD_LIBRARIES "-lgcc" CACHE STRING "")
    set(CMAKE_CXX_STANDARD_LIBRARIES "-lgcc" CACHE STRING "")

    # Cross tools find target files only in the sysroot, host programs on PATH.
    set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
    set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
    set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
    set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
endmacro()

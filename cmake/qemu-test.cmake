# SPDX-License-Identifier: MIT
# qemu-test.cmake: run bare-metal firmware as ctest tests under QEMU.
#
# Included from CMake, it defines kairos_add_qemu_test(). Run as a script
# (cmake -P qemu-test.cmake -- <command...>) with -DEXPECT_EXIT=<n> (and
# optionally -DEXPECT_OUTPUT=<regex>), it runs the command and passes only if
# the exit status is exactly n (and the output matches): that is how tests
# of the fatal paths (panic 97, HardFault 98) check the code itself.
#
# QEMU runs with -icount shift=0,align=off,sleep=off: the virtual clock is
# driven by the instruction count (1 ns per instruction), so SysTick and every
# timing result is deterministic and idle time (wfi) is skipped. The program
# prints through semihosting and exits with SYS_EXIT_EXTENDED, so its exit
# status reaches ctest unchanged.

if(CMAKE_SCRIPT_MODE_FILE)
    set(cmd)
    set(take OFF)
    math(EXPR last "${CMAKE_ARGC} - 1")
    foreach(i RANGE ${last})
        if(take)
            list(APPEND cmd "${CMAKE_ARGV${i}}")
        elseif(CMAKE_ARGV${i} STREQUAL "--")
            set(take ON)
        endif()
    endforeach()
    execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
    message("${out}")
    if(NOT rc STREQUAL "${EXPECT_EXIT}")
        message(FATAL_ERROR "exit status ${rc}, expected ${EXPECT_EXIT}")
    endif()
    if(DEFINED EXPECT_OUTPUT AND NOT out MATCHES "${EXPECT_OUTPUT}")
        message(FATAL_ERROR "output does not match '${EXPECT_OUTPUT}'")
    endif()
    message(STATUS "exit status ${rc} as expected")
    return()
endif()

include_guard(GLOBAL)

# KAIROS_QEMU: the emulator command line for KAIROS_MCU, without -kernel.
set(_kairos_icount -icount shift=0,align=off,sleep=off)
set(_kairos_qemu_common -nographic -monitor none -serial none ${_kairos_icount})
if(KAIROS_MCU STREQUAL "cortex-m0")
    set(_kairos_qemu qemu-system-arm -M microbit)
elseif(KAIROS_MCU STREQUAL "cortex-m3")
    set(_kairos_qemu qemu-system-arm -M mps2-an385)
elseif(KAIROS_MCU STREQUAL "cortex-m4f")
    set(_kairos_qemu qemu-system-arm -M mps2-an386)
elseif(KAIROS_MCU STREQUAL "cortex-m7")
    set(_kairos_qemu qemu-system-arm -M mps2-an500)
elseif(KAIROS_MCU STREQUAL "cortex-m33")
    set(_kairos_qemu qemu-system-arm -M mps2-an505)
elseif(KAIROS_MCU STREQUAL "cortex-m55")
    set(_kairos_qemu qemu-system-arm -M mps3-an547)
elseif(KAIROS_MCU STREQUAL "lx106")
    set(_kairos_qemu qemu-system-xtensa -M sim -cpu lx106)
else()
    message(FATAL_ERROR "qemu-test.cmake: no QEMU machine for KAIROS_MCU=${KAIROS_MCU}")
endif()
# KAIROS_QEMU_TIMER_HZ: rate of the board timer (board::cycles()) in the QEMU
# model: mps2 SysTick 25 MHz, mps2-an505 20 MHz (QEMU hw/arm/mps2-tz.c
# sysclk_frq), mps3-an547 32 MHz (same source), microbit SysTick 16 MHz, lx106 `sim` CCOUNT
# 40 MHz (measured: 32000 CCOUNT ticks for 800k instructions of a counted
# loop). Under -icount shift=0 one instruction is 1 ns of virtual time.
if(KAIROS_MCU STREQUAL "cortex-m0")
    set(_kairos_timer_hz 16000000)
elseif(KAIROS_MCU STREQUAL "cortex-m33")
    set(_kairos_timer_hz 20000000)
elseif(KAIROS_MCU STREQUAL "cortex-m55")
    set(_kairos_timer_hz 32000000)
elseif(KAIROS_MCU STREQUAL "lx106")
    set(_kairos_timer_hz 40000000)
else()
    set(_kairos_timer_hz 25000000)
endif()
set(KAIROS_QEMU_TIMER_HZ ${_kairos_timer_hz} CACHE INTERNAL "board timer rate in the QEMU model")
list(GET _kairos_qemu 0 _kairos_qemu_exe)
find_program(KAIROS_QEMU_EXECUTABLE ${_kairos_qemu_exe} REQUIRED)
list(REMOVE_AT _kairos_qemu 0)
if(KAIROS_MCU STREQUAL "lx106")
    set(_kairos_semihosting -semihosting)
else()
    set(_kairos_semihosting -semihosting-config enable=on,target=native)
endif()
set(KAIROS_QEMU ${KAIROS_QEMU_EXECUTABLE} ${_kairos_qemu} ${_kairos_qemu_common} ${_kairos_semihosting}
    CACHE INTERNAL "QEMU command line for KAIROS_MCU, without -kernel")

# kairos_add_qemu_test(NAME <test> TARGET <firmware> [EXPECT_EXIT <n>
#                      [EXPECT_OUTPUT <regex>]] [WILL_FAIL])
# registers a ctest running <firmware> in QEMU (30 s timeout). By default it
# passes on exit status 0; EXPECT_EXIT demands exactly <n> (and
# EXPECT_OUTPUT a matching console output); WILL_FAIL inverts (used once,
# to prove a failing firmware fails ctest).
function(kairos_add_qemu_test)
    cmake_parse_arguments(arg "WILL_FAIL" "NAME;TARGET;EXPECT_EXIT;EXPECT_OUTPUT" "" ${ARGN})
    set(run ${KAIROS_QEMU} -kernel $<TARGET_FILE:${arg_TARGET}>)
    if(DEFINED arg_EXPECT_EXIT)
        set(expect -DEXPECT_EXIT=${arg_EXPECT_EXIT})
        if(DEFINED arg_EXPECT_OUTPUT)
            list(APPEND expect "-DEXPECT_OUTPUT=${arg_EXPECT_OUTPUT}")
        endif()
        add_test(NAME ${arg_NAME}
                 COMMAND ${CMAKE_COMMAND} ${expect} -P ${CMAKE_CURRENT_FUNCTION_LIST_FILE} -- ${run})
    else()
        add_test(NAME ${arg_NAME} COMMAND ${run})
    endif()
    set_tests_properties(${arg_NAME} PROPERTIES TIMEOUT 30 LABELS target)
    if(arg_WILL_FAIL)
        set_tests_properties(${arg_NAME} PROPERTIES WILL_FAIL TRUE)
    endif()
endfunction()

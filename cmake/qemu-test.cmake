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

# KAIROS_QEMU: the board's emulator command line (cmake/board.cmake,
# kairos_board_qemu()) with the instruction-count clock and no display,
# monitor or serial port, without -kernel. KAIROS_QEMU_TIMER_HZ: the model's
# core clock, the rate of board::cycles(). Under -icount shift=0 one
# instruction is 1 ns of virtual time.
if(NOT KAIROS_BOARD_QEMU)
    message(FATAL_ERROR "qemu-test.cmake: KAIROS_BOARD='${KAIROS_BOARD}' is not a QEMU board")
endif()
set(KAIROS_QEMU_TIMER_HZ ${KAIROS_BOARD_CPU_HZ} CACHE INTERNAL "board timer rate in the QEMU model")
set(_kairos_qemu ${KAIROS_BOARD_QEMU})
list(GET _kairos_qemu 0 _kairos_qemu_exe)
find_program(KAIROS_QEMU_EXECUTABLE ${_kairos_qemu_exe} REQUIRED)
list(REMOVE_AT _kairos_qemu 0)
set(KAIROS_QEMU ${KAIROS_QEMU_EXECUTABLE} ${_kairos_qemu}
    -nographic -monitor none -serial none -icount shift=0,align=off,sleep=off
    CACHE INTERNAL "QEMU command line for KAIROS_BOARD, without -kernel")

# kairos_add_qemu_test(NAME <test> TARGET <firmware> [EXPECT_EXIT <n>
#                      [EXPECT_OUTPUT <regex>]] [WILL_FAIL])
# registers a ctest running <firmware> in QEMU. Results come from virtual
# time; the 180 s wall-clock timeout only guards against a hang, sized so a
# machine loaded by other builds never trips it. By default it
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
    set_tests_properties(${arg_NAME} PROPERTIES TIMEOUT 180 LABELS target)
    if(arg_WILL_FAIL)
        set_tests_properties(${arg_NAME} PROPERTIES WILL_FAIL TRUE)
    endif()
endfunction()

# SPDX-License-Identifier: MIT
# KAIROS_BOARD selects the board under boards/ whose startup, linker script
# and hooks (console, exit, fault handlers, clock) the project's own
# firmware (tests/target, bench/target, boards' examples) is built for. The
# library itself is board-independent: a firmware of its own brings its
# board code instead (docs/porting.md) and leaves KAIROS_BOARD empty.
#
# boards/<name>/board.cmake, included once, defines the OBJECT library
# kairos_board (the board's sources; its INTERFACE link options carry the
# linker script) and, when ctest can run its firmware under QEMU
# (cmake/qemu-test.cmake), calls kairos_board_qemu() with the emulator
# command and the core clock of the model. A board for real hardware does
# not, and its firmware is built only.
include_guard(GLOBAL)

set(KAIROS_BOARD "" CACHE STRING "Board under boards/ for the project's firmware (empty: none)")

# kairos_use_board() includes boards/${KAIROS_BOARD}/board.cmake and returns
# in KAIROS_BOARD_FOUND whether there is a board.
macro(kairos_use_board)
    set(KAIROS_BOARD_FOUND OFF)
    if(NOT TARGET kairos_board)
        unset(KAIROS_BOARD_QEMU CACHE)
        unset(KAIROS_BOARD_CPU_HZ CACHE)
        unset(KAIROS_BOARD_REFERENCE_CLOCK CACHE)
        unset(KAIROS_BOARD_REFERENCE_CLOCK_DEFS CACHE)
    endif()
    if(NOT KAIROS_BOARD STREQUAL "")
        set(_kairos_board_file ${PROJECT_SOURCE_DIR}/boards/${KAIROS_BOARD}/board.cmake)
        if(NOT EXISTS ${_kairos_board_file})
            message(FATAL_ERROR "KAIROS_BOARD=${KAIROS_BOARD}: no ${_kairos_board_file}")
        endif()
        if(NOT TARGET kairos_board)
            include(${_kairos_board_file})
        endif()
        set(KAIROS_BOARD_FOUND ON)
    endif()
    if(KAIROS_BOARD_QEMU)
        set(KAIROS_BOARD_RUNS_IN_QEMU ON)
    else()
        set(KAIROS_BOARD_RUNS_IN_QEMU OFF)
    endif()
endmacro()

# kairos_board_qemu(HZ <hz> COMMAND <qemu-system-x> <args>...) records that
# the board is a QEMU model: KAIROS_BOARD_QEMU, the emulator command line
# without -kernel, the instruction-count clock and console options (those
# are cmake/qemu-test.cmake's), and KAIROS_BOARD_CPU_HZ, the model's core
# clock (the rate of its cycle counter).
function(kairos_board_qemu)
    cmake_parse_arguments(arg "" "HZ" "COMMAND" ${ARGN})
    set(KAIROS_BOARD_QEMU "${arg_COMMAND}" CACHE INTERNAL "the board's QEMU command line")
    set(KAIROS_BOARD_CPU_HZ ${arg_HZ} CACHE INTERNAL "the QEMU model's core clock")
endfunction()

# kairos_board_reference_clock(<source> [<definition>...]) names the board's
# test reference clock: <source> defines ktarget::reference_ns()
# (tests/target/target.hpp) for the on-target tests, compiled into their
# runtime with the <definition>s. A QEMU board calls it; on a machine with
# no clock besides the port's, <source> says so (reference_ns() false).
function(kairos_board_reference_clock source)
    set(KAIROS_BOARD_REFERENCE_CLOCK "${source}" CACHE INTERNAL "the board's test reference clock")
    set(KAIROS_BOARD_REFERENCE_CLOCK_DEFS "${ARGN}" CACHE INTERNAL "its compile definitions")
endfunction()

# kairos_board_linker_script(<script> [<dir>...]) links the board's firmware
# with <script>, with <dir>s on the linker's search path (for INCLUDE).
function(kairos_board_linker_script script)
    get_filename_component(dir ${script} DIRECTORY)
    set(search -L${dir})
    foreach(d IN LISTS ARGN)
        list(APPEND search -L${d})
    endforeach()
    target_link_options(kairos_board INTERFACE -T${script} ${search})
    set_property(TARGET kairos_board APPEND PROPERTY INTERFACE_LINK_DEPENDS ${script})
endfunction()

# SPDX-License-Identifier: MIT
# Shared by the QEMU Cortex-M boards (qemu-mps2-an385/an386/an500,
# qemu-microbit): semihosting console and exit, the tests' HardFault policy,
# the startup. kairos_qemu_cortex_m_board(<linker script> <core clock Hz>
# <QEMU machine> [BOARD_TIMER <source> <base> <irq>]): with BOARD_TIMER, the
# board timer (include/kairos/board.hpp) is the model's timer at <base>,
# interrupt <irq>, driven by <source> (KAIROS_BOARD_TIMER_BASE,
# KAIROS_BOARD_TIMER_IRQ); without, SysTick. REFERENCE_CLOCK <base>
# <ns per count>: the tests' reference clock is the mps2 FPGAIO's COUNTER at
# <base> (mps2_fpgaio_clock.cpp); a board without names its own with
# kairos_board_reference_clock() after this call.
function(kairos_qemu_cortex_m_board ld hz machine)
    cmake_parse_arguments(arg "" "" "BOARD_TIMER;REFERENCE_CLOCK" ${ARGN})
    set(dir ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
    add_library(kairos_board OBJECT ${dir}/startup.cpp ${dir}/semihosting.cpp)
    target_link_libraries(kairos_board PUBLIC kairos PRIVATE kairos_warnings)
    target_compile_definitions(kairos_board PRIVATE KAIROS_BOARD_CPU_HZ=${hz})
    target_include_directories(kairos_board PRIVATE ${PROJECT_SOURCE_DIR}/boards/cortex-m-common)
    if(arg_BOARD_TIMER)
        list(GET arg_BOARD_TIMER 0 source)
        list(GET arg_BOARD_TIMER 1 base)
        list(GET arg_BOARD_TIMER 2 irq)
        target_sources(kairos_board PRIVATE ${source})
        target_compile_definitions(kairos_board PRIVATE KAIROS_BOARD_TIMER_BASE=${base}u
                                   KAIROS_BOARD_TIMER_IRQ=${irq})
    endif()
    if(arg_REFERENCE_CLOCK)
        list(GET arg_REFERENCE_CLOCK 0 base)
        list(GET arg_REFERENCE_CLOCK 1 ns)
        kairos_board_reference_clock(${dir}/mps2_fpgaio_clock.cpp KAIROS_REFCLK_BASE=${base}u
                                     KAIROS_REFCLK_NS_PER_COUNT=${ns}u)
    endif()
    kairos_board_linker_script(${ld} ${PROJECT_SOURCE_DIR}/boards/cortex-m-common)
    kairos_board_qemu(HZ ${hz} COMMAND qemu-system-arm -M ${machine}
                      -semihosting-config enable=on,target=native)
endfunction()

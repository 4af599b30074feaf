# SPDX-License-Identifier: MIT
# Shared by the QEMU Cortex-M boards (qemu-mps2-an385/an386/an500,
# qemu-microbit): semihosting console and exit, the tests' HardFault policy,
# the startup. kairos_qemu_cortex_m_board(<linker script> <core clock Hz>
# <QEMU machine> [BOARD_TIMER <source> <base> <irq>]): with BOARD_TIMER, the
# board timer (include/kairos/board.hpp) is the model's timer at <base>,
# interrupt <irq>, driven by <source> (KAIROS_BOARD_TIMER_BASE,
# KAIROS_BOARD_TIMER_IRQ); without, SysTick.
function(kairos_qemu_cortex_m_board ld hz machine)
    cmake_parse_arguments(arg "" "" "BOARD_TIMER" ${ARGN})
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
    kairos_board_linker_script(${ld} ${PROJECT_SOURCE_DIR}/boards/cortex-m-common)
    kairos_board_qemu(HZ ${hz} COMMAND qemu-system-arm -M ${machine}
                      -semihosting-config enable=on,target=native)
endfunction()

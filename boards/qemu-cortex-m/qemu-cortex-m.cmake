# SPDX-License-Identifier: MIT
# Shared by the QEMU Cortex-M boards (qemu-mps2-an385/an386/an500,
# qemu-microbit): semihosting console and exit, the tests' HardFault policy,
# the startup. kairos_qemu_cortex_m_board(<linker script> <SysTick Hz>
# <QEMU machine>).
function(kairos_qemu_cortex_m_board ld hz machine)
    set(dir ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
    add_library(kairos_board OBJECT ${dir}/startup.cpp ${dir}/semihosting.cpp)
    target_link_libraries(kairos_board PUBLIC kairos PRIVATE kairos_warnings)
    target_compile_definitions(kairos_board PRIVATE KAIROS_BOARD_CPU_HZ=${hz})
    target_include_directories(kairos_board PRIVATE ${PROJECT_SOURCE_DIR}/boards/cortex-m-common)
    kairos_board_linker_script(${ld} ${PROJECT_SOURCE_DIR}/boards/cortex-m-common)
    kairos_board_qemu(HZ ${hz} COMMAND qemu-system-arm -M ${machine}
                      -semihosting-config enable=on,target=native)
endfunction()

# SPDX-License-Identifier: MIT
# NUCLEO-F446RE (STM32F446RE, Cortex-M4F, KAIROS_MCU=cortex-m4f): vendor-style
# startup and vector table, HSI 16 MHz clock, USART2 console on PA2 at
# 115200 baud. Built by CI, not run: it has not run on hardware.
set(_kairos_board_dir ${CMAKE_CURRENT_LIST_DIR})
add_library(kairos_board OBJECT ${_kairos_board_dir}/startup.cpp ${_kairos_board_dir}/system.cpp)
target_link_libraries(kairos_board PUBLIC kairos PRIVATE kairos_warnings)
target_include_directories(kairos_board PRIVATE ${PROJECT_SOURCE_DIR}/boards/cortex-m-common)
kairos_board_linker_script(${_kairos_board_dir}/nucleo-f446re.ld ${PROJECT_SOURCE_DIR}/boards/cortex-m-common)

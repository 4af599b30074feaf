# SPDX-License-Identifier: MIT
# QEMU microbit (nRF51822, Cortex-M0, KAIROS_MCU=cortex-m0): the model's
# 16 MHz core clock, 16 KiB of RAM; the time base and tick are TIMER0's
# (board.hpp, "Board timer"; nrf51_timer.cpp).
include(${PROJECT_SOURCE_DIR}/boards/qemu-cortex-m/qemu-cortex-m.cmake)
kairos_qemu_cortex_m_board(${CMAKE_CURRENT_LIST_DIR}/microbit.ld 16000000 microbit
                           BOARD_TIMER ${CMAKE_CURRENT_LIST_DIR}/nrf51_timer.cpp 0x40008000 8)
kairos_board_reference_clock(${CMAKE_CURRENT_LIST_DIR}/nrf51_reference_clock.cpp)

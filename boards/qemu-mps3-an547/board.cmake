# SPDX-License-Identifier: MIT
# QEMU mps3-an547 (SSE-300, Cortex-M55, KAIROS_MCU=cortex-m55), secure
# state: the model's 32 MHz core clock; the time base and tick are the
# SSE-300 system timer 1's (board.hpp, "Board timer"; sse_timer.cpp).
include(${PROJECT_SOURCE_DIR}/boards/qemu-cortex-m/qemu-cortex-m.cmake)
kairos_qemu_cortex_m_board(${CMAKE_CURRENT_LIST_DIR}/an547.ld 32000000 mps3-an547
                           BOARD_TIMER ${CMAKE_CURRENT_LIST_DIR}/sse_timer.cpp 0x58001000 4
                           REFERENCE_CLOCK 0x59302000 50)

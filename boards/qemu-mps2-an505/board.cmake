# SPDX-License-Identifier: MIT
# QEMU mps2-an505 (IoTKit, Cortex-M33, KAIROS_MCU=cortex-m33), secure state:
# the model's 20 MHz core clock; the time base and tick are the SSE-200's
# CMSDK dual timer's (its secure alias; board.hpp, "Board timer").
include(${PROJECT_SOURCE_DIR}/boards/qemu-cortex-m/qemu-cortex-m.cmake)
kairos_qemu_cortex_m_board(${CMAKE_CURRENT_LIST_DIR}/an505.ld 20000000 mps2-an505
                           BOARD_TIMER ${PROJECT_SOURCE_DIR}/boards/qemu-cortex-m/cmsdk_dualtimer.cpp
                                       0x50002000 5
                           REFERENCE_CLOCK 0x50302000 50)

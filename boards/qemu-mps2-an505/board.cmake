# SPDX-License-Identifier: MIT
# QEMU mps2-an505 (IoTKit, Cortex-M33, KAIROS_MCU=cortex-m33), secure state:
# SysTick at the model's 20 MHz.
include(${PROJECT_SOURCE_DIR}/boards/qemu-cortex-m/qemu-cortex-m.cmake)
kairos_qemu_cortex_m_board(${CMAKE_CURRENT_LIST_DIR}/an505.ld 20000000 mps2-an505)

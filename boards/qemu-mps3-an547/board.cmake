# SPDX-License-Identifier: MIT
# QEMU mps3-an547 (SSE-300, Cortex-M55, KAIROS_MCU=cortex-m55), secure
# state: SysTick at the model's 32 MHz.
include(${PROJECT_SOURCE_DIR}/boards/qemu-cortex-m/qemu-cortex-m.cmake)
kairos_qemu_cortex_m_board(${CMAKE_CURRENT_LIST_DIR}/an547.ld 32000000 mps3-an547)

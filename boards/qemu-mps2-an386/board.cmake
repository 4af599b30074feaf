# SPDX-License-Identifier: MIT
# QEMU mps2-an386 (M4F, KAIROS_MCU=cortex-m4f): SysTick at the model's 25 MHz.
include(${PROJECT_SOURCE_DIR}/boards/qemu-cortex-m/qemu-cortex-m.cmake)
kairos_qemu_cortex_m_board(${PROJECT_SOURCE_DIR}/boards/qemu-cortex-m/mps2.ld 25000000 mps2-an386)

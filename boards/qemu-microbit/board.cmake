# SPDX-License-Identifier: MIT
# QEMU microbit (nRF51822, Cortex-M0, KAIROS_MCU=cortex-m0): SysTick at the
# model's 16 MHz, 16 KiB of RAM.
include(${PROJECT_SOURCE_DIR}/boards/qemu-cortex-m/qemu-cortex-m.cmake)
kairos_qemu_cortex_m_board(${CMAKE_CURRENT_LIST_DIR}/microbit.ld 16000000 microbit)

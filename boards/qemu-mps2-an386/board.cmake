# SPDX-License-Identifier: MIT
# QEMU mps2-an386 (M4F, KAIROS_MCU=cortex-m4f): the model's 25 MHz core clock;
# the time base and tick are the CMSDK dual timer's (board.hpp, "Board timer").
include(${PROJECT_SOURCE_DIR}/boards/qemu-cortex-m/qemu-cortex-m.cmake)
kairos_qemu_cortex_m_board(${PROJECT_SOURCE_DIR}/boards/qemu-cortex-m/mps2.ld 25000000 mps2-an386
                           BOARD_TIMER ${PROJECT_SOURCE_DIR}/boards/qemu-cortex-m/cmsdk_dualtimer.cpp
                                       0x40002000 10
                           REFERENCE_CLOCK 0x40028000 40)

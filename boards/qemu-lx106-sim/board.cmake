# SPDX-License-Identifier: MIT
# QEMU `-M sim -cpu lx106` (KAIROS_MCU=lx106): vectors, reset, startup,
# simcall console and exit; CCOUNT at the model's 40 MHz (an ESP8266 runs at
# 80 MHz), so now_us() and the tickers keep QEMU's virtual time.
set(_kairos_board_dir ${CMAKE_CURRENT_LIST_DIR})
add_library(kairos_board OBJECT ${_kairos_board_dir}/reset.S ${_kairos_board_dir}/vectors.S ${_kairos_board_dir}/startup.cpp ${_kairos_board_dir}/semihosting.cpp)
target_link_libraries(kairos_board PUBLIC kairos PRIVATE kairos_warnings)
target_compile_definitions(kairos_board PRIVATE KAIROS_BOARD_CPU_HZ=40000000)
kairos_board_linker_script(${_kairos_board_dir}/lx106.ld ${PROJECT_SOURCE_DIR}/port/xtensa_lx106)
kairos_board_reference_clock(${_kairos_board_dir}/reference_clock.cpp)  # none: says so
kairos_board_qemu(HZ 40000000 COMMAND qemu-system-xtensa -M sim -cpu lx106 -semihosting)
# lx106.ld INCLUDEs the port's IRAM fragment: relink when it changes.
set_property(TARGET kairos_board APPEND PROPERTY INTERFACE_LINK_DEPENDS
             ${PROJECT_SOURCE_DIR}/port/xtensa_lx106/iram.ld)

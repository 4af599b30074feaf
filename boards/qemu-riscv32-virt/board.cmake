# SPDX-License-Identifier: MIT
# QEMU `-M virt -bios none` with an RV32 hart (KAIROS_MCU=rv32imac, rv32imc,
# rv32imac_zbb; the -cpu options switch off the extensions the build does
# not have, so an instruction it should not contain faults): reset, startup,
# semihosting console, exit through the SiFive test finisher; the CLINT's
# mtime at the model's 10 MHz, so now_us() and the tickers keep QEMU's
# virtual time.
set(_kairos_board_dir ${CMAKE_CURRENT_LIST_DIR})
add_library(kairos_board OBJECT ${_kairos_board_dir}/reset.S ${_kairos_board_dir}/startup.cpp
            ${_kairos_board_dir}/semihosting.cpp)
target_link_libraries(kairos_board PUBLIC kairos PRIVATE kairos_warnings)
target_compile_definitions(kairos_board PRIVATE KAIROS_BOARD_CPU_HZ=10000000)
kairos_board_linker_script(${_kairos_board_dir}/virt.ld)
if(KAIROS_MCU STREQUAL "rv32imc")
    set(_kairos_rv_cpu rv32,a=false,f=false,d=false,zbb=false)
elseif(KAIROS_MCU STREQUAL "rv32imac_zbb")
    set(_kairos_rv_cpu rv32,f=false,d=false,zbb=true)
else()
    set(_kairos_rv_cpu rv32,f=false,d=false,zbb=false)
endif()
kairos_board_qemu(HZ 10000000 COMMAND qemu-system-riscv32 -M virt -bios none -cpu ${_kairos_rv_cpu}
                  -semihosting-config enable=on,target=native -rtc clock=vm)
# The Goldfish RTC on QEMU's virtual clock (-rtc clock=vm): the tests'
# reference clock, independent of mtime.
kairos_board_reference_clock(${_kairos_board_dir}/goldfish_rtc_clock.cpp)

# Sources of the Xtensa lx106 (ESP8266) port. KAIROS_CPU_HZ is the rate of
# CCOUNT: 80 MHz on an ESP8266 at its default clock (the default here); the
# lx106 preset sets QEMU's `sim` rate, 40 MHz, so now_us() and the tickers
# keep QEMU's virtual time, as the Cortex-M presets use their boards' clocks.
function(kairos_port_sources target)
    set(dir ${PROJECT_SOURCE_DIR}/port/xtensa_lx106)
    set(KAIROS_CPU_HZ 80000000 CACHE STRING "CCOUNT rate in Hz")
    target_sources(${target} PRIVATE ${dir}/port.cpp ${dir}/switch.S ${dir}/arith.cpp
                   ${PROJECT_SOURCE_DIR}/port/mcu_common/ticker.cpp
                   ${PROJECT_SOURCE_DIR}/port/mcu_common/atomic_irq.cpp
                   ${PROJECT_SOURCE_DIR}/port/mcu_common/panic.cpp)
    target_compile_definitions(${target} PUBLIC KAIROS_CPU_HZ=${KAIROS_CPU_HZ})
    kairos_port_interface(${target} DIR ${dir} IRQ_INLINE
                          HEADERS kairos_port_irq.hpp lx106.hpp frame.hpp)
endfunction()

# SPDX-License-Identifier: MIT
# Sources of the Xtensa lx106 (ESP8266) port: only what the core defines.
# CCOUNT's rate is set at run time (kairos::port::set_cpu_hz(), by the
# board); console, exit and vectors are the board's (boards/).
function(kairos_port_sources target)
    set(dir ${PROJECT_SOURCE_DIR}/port/xtensa_lx106)
    target_sources(${target} PRIVATE ${dir}/port.cpp ${dir}/switch.S ${dir}/arith.cpp
                   ${PROJECT_SOURCE_DIR}/port/mcu_common/ticker.cpp
                   ${PROJECT_SOURCE_DIR}/port/mcu_common/atomic_irq.cpp
                   ${PROJECT_SOURCE_DIR}/port/mcu_common/panic.cpp)
    kairos_port_interface(${target} DIR ${dir} IRQ_INLINE
                          HEADERS kairos_port_irq.hpp lx106.hpp frame.hpp)
endfunction()

# SPDX-License-Identifier: MIT
# Sources of the Cortex-M port: only what the architecture defines. The core
# clock is set at run time (kairos::port::set_cpu_hz(), by the board), and
# console, exit and fault handlers are the board's (boards/).
function(kairos_port_sources target)
    set(dir ${PROJECT_SOURCE_DIR}/port/cortex_m)
    target_sources(${target} PRIVATE ${dir}/port.cpp ${dir}/board_timer.cpp ${dir}/pendsv.S
                   ${PROJECT_SOURCE_DIR}/port/mcu_common/ticker.cpp
                   ${PROJECT_SOURCE_DIR}/port/mcu_common/atomic_irq.cpp
                   ${PROJECT_SOURCE_DIR}/port/mcu_common/panic.cpp)
    kairos_port_interface(${target} DIR ${dir} IRQ_INLINE NO_IDLE_IN_SWITCH
                          HEADERS cortex_m.hpp kairos_port_irq.hpp mask.hpp)
endfunction()

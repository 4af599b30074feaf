# SPDX-License-Identifier: MIT
# Sources of port/framework_esp8266: kairos hosted by the ESP8266 Arduino
# core or the NONOS SDK (time, masks, console, panic and timers are the
# framework's). No kernel, no vectors. The __atomic_* helpers of
# port/mcu_common are weak here: the framework's, if it has them, win.
function(kairos_port_sources target)
    set(dir ${PROJECT_SOURCE_DIR}/port/framework_esp8266)
    target_sources(${target} PRIVATE ${dir}/port.cpp ${dir}/ticker.cpp
                   ${PROJECT_SOURCE_DIR}/port/mcu_common/atomic_irq.cpp)
    set_source_files_properties(${PROJECT_SOURCE_DIR}/port/mcu_common/atomic_irq.cpp
        TARGET_DIRECTORY ${target} PROPERTIES COMPILE_DEFINITIONS KAIROS_ATOMIC_RMW_WEAK=1)
    kairos_port_interface(${target} DIR ${dir} IRQ_INLINE
                          HEADERS kairos_port_irq.hpp kairos_framework.hpp)
endfunction()

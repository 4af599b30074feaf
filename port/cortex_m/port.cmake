# Sources of the Cortex-M port. KAIROS_MCU (from the toolchain file) selects
# the armv6-m extras; KAIROS_CPU_HZ is the core clock SysTick counts, by
# default that of the QEMU board each core runs on (mps2: 25 MHz, microbit:
# 16 MHz, mps2-an505: 20 MHz, mps3-an547: 32 MHz).
function(kairos_port_sources target)
    set(dir ${PROJECT_SOURCE_DIR}/port/cortex_m)
    if(KAIROS_MCU STREQUAL "cortex-m0")
        set(default_hz 16000000)
    elseif(KAIROS_MCU STREQUAL "cortex-m33")
        set(default_hz 20000000)
    elseif(KAIROS_MCU STREQUAL "cortex-m55")
        set(default_hz 32000000)
    else()
        set(default_hz 25000000)
    endif()
    set(KAIROS_CPU_HZ ${default_hz} CACHE STRING "Core clock in Hz (SysTick source)")
    target_sources(${target} PRIVATE ${dir}/port.cpp ${dir}/pendsv.S
                   ${PROJECT_SOURCE_DIR}/port/mcu_common/ticker.cpp
                   ${PROJECT_SOURCE_DIR}/port/mcu_common/atomic_irq.cpp
                   ${PROJECT_SOURCE_DIR}/port/mcu_common/panic.cpp)
    target_compile_definitions(${target} PUBLIC KAIROS_CPU_HZ=${KAIROS_CPU_HZ})
    kairos_port_interface(${target} DIR ${dir} HEADERS cortex_m.hpp)
endfunction()

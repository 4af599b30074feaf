# Sources of the Xtensa lx106 (ESP8266) port. KAIROS_CPU_HZ is the rate of
# CCOUNT: 80 MHz on an ESP8266 at its default clock.
#
# This port has no context switch (stack_init, request_switch, ... of
# port.hpp), so the kernel core is not part of the lx106 library: rings,
# bits, the deferred scheduler and the port hooks are.
function(kairos_port_sources target)
    set(dir ${PROJECT_SOURCE_DIR}/port/xtensa_lx106)
    set(KAIROS_CPU_HZ 80000000 CACHE STRING "CCOUNT rate in Hz")
    get_target_property(sources ${target} SOURCES)
    if(kairos_kernel_sources)
        list(REMOVE_ITEM sources ${kairos_kernel_sources})
        set_property(TARGET ${target} PROPERTY SOURCES ${sources})
    endif()
    target_sources(${target} PRIVATE ${dir}/port.cpp ${dir}/arith.cpp
                   ${PROJECT_SOURCE_DIR}/port/mcu_common/atomic_irq.cpp
                   ${PROJECT_SOURCE_DIR}/port/mcu_common/panic.cpp)
    target_compile_definitions(${target} PUBLIC KAIROS_CPU_HZ=${KAIROS_CPU_HZ})
    target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${dir}>)
endfunction()

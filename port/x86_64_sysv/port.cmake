# SPDX-License-Identifier: MIT
# x86-64 SysV host port: switch.S (call + ret; the direct switch_to too) +
# the shared host hooks.
function(kairos_port_sources target)
    set(dir ${PROJECT_SOURCE_DIR}/port/x86_64_sysv)
    target_sources(${target} PRIVATE ${dir}/switch.S ${dir}/port.cpp
                   ${PROJECT_SOURCE_DIR}/port/host_common/host.cpp)
    kairos_port_interface(${target} DIR ${PROJECT_SOURCE_DIR}/port/host_common IRQ_INLINE DIRECT_SWITCH
                          HEADERS kairos_port_irq.hpp kairos_host.hpp)
endfunction()

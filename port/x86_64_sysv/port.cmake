# SPDX-License-Identifier: MIT
# x86-64 SysV host port: switch.S (call + ret) + the shared host hooks.
function(kairos_port_sources target)
    set(dir ${PROJECT_SOURCE_DIR}/port/x86_64_sysv)
    target_sources(${target} PRIVATE ${dir}/switch.S ${dir}/port.cpp
                   ${PROJECT_SOURCE_DIR}/port/host_common/host.cpp)
    kairos_port_interface(${target} DIR ${PROJECT_SOURCE_DIR}/port/host_common IRQ_INLINE
                          HEADERS kairos_port_irq.hpp kairos_host.hpp)
endfunction()

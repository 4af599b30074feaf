# SPDX-License-Identifier: MIT
# AArch64 AAPCS64 host port: switch.S (br x30, not ret) + the shared host hooks.
function(kairos_port_sources target)
    set(dir ${PROJECT_SOURCE_DIR}/port/aarch64_aapcs)
    target_sources(${target} PRIVATE ${dir}/switch.S ${dir}/port.cpp
                   ${PROJECT_SOURCE_DIR}/port/host_common/host.cpp)
    kairos_port_interface(${target} DIR ${PROJECT_SOURCE_DIR}/port/host_common IRQ_INLINE
                          HEADERS kairos_port_irq.hpp kairos_host.hpp)
endfunction()

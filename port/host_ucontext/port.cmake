# SPDX-License-Identifier: MIT
# host_ucontext: the reference port (swapcontext, sanitizer fiber hooks).
function(kairos_port_sources target)
    target_sources(${target} PRIVATE ${PROJECT_SOURCE_DIR}/port/host_ucontext/port.cpp
                   ${PROJECT_SOURCE_DIR}/port/host_common/host.cpp)
    kairos_port_interface(${target} DIR ${PROJECT_SOURCE_DIR}/port/host_common IRQ_INLINE
                          HEADERS kairos_port_irq.hpp kairos_host.hpp)
endfunction()

# KAIROS_PORT selects the context-switch/critical-section port under port/.
# The default follows the processor being compiled for (Boost.Context style);
# set it explicitly to test another host port (e.g. host_ucontext).
include_guard(GLOBAL)

if(NOT DEFINED KAIROS_PORT_DEFAULT)
    string(TOLOWER "${CMAKE_SYSTEM_PROCESSOR}" _kairos_proc)
    if(CMAKE_SYSTEM_NAME STREQUAL "Generic" AND _kairos_proc MATCHES "^(arm|cortex)")
        set(KAIROS_PORT_DEFAULT cortex_m)
    elseif(_kairos_proc MATCHES "xtensa")
        set(KAIROS_PORT_DEFAULT xtensa_lx106)
    elseif(_kairos_proc MATCHES "^(x86_64|amd64)$")
        set(KAIROS_PORT_DEFAULT x86_64_sysv)
    elseif(_kairos_proc MATCHES "^(aarch64|arm64)$")
        set(KAIROS_PORT_DEFAULT aarch64_aapcs)
    else()
        set(KAIROS_PORT_DEFAULT host_ucontext)
    endif()
endif()
set(kairos_ports x86_64_sysv aarch64_aapcs host_ucontext cortex_m xtensa_lx106)
set(KAIROS_PORT "${KAIROS_PORT_DEFAULT}" CACHE STRING "Port under port/")
set_property(CACHE KAIROS_PORT PROPERTY STRINGS ${kairos_ports})
if(NOT KAIROS_PORT IN_LIST kairos_ports)
    message(FATAL_ERROR "KAIROS_PORT=${KAIROS_PORT}: not one of ${kairos_ports}")
endif()

# kairos_add_port(target) adds the sources of port/${KAIROS_PORT} to target.
# Each port folder has a port.cmake that defines kairos_port_sources(target).
function(kairos_add_port target)
    set(dir ${PROJECT_SOURCE_DIR}/port/${KAIROS_PORT})
    if(EXISTS ${dir}/port.cmake)
        include(${dir}/port.cmake)
        kairos_port_sources(${target})
    endif()
endfunction()

# SPDX-License-Identifier: MIT
# KAIROS_PORT selects the context-switch/critical-section port under port/.
# The default follows the processor being compiled for (Boost.Context style);
# set it explicitly to test another host port (e.g. host_ucontext).
include_guard(GLOBAL)

if(NOT DEFINED KAIROS_PORT_DEFAULT)
    string(TOLOWER "${CMAKE_SYSTEM_PROCESSOR}" _kairos_proc)
    if(CMAKE_SYSTEM_NAME STREQUAL "Generic" AND _kairos_proc MATCHES "^(arm|cortex)")
        set(KAIROS_PORT_DEFAULT cortex_m)
    elseif(CMAKE_SYSTEM_NAME STREQUAL "Generic" AND _kairos_proc MATCHES "^riscv32")
        set(KAIROS_PORT_DEFAULT riscv32)
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
set(kairos_ports x86_64_sysv aarch64_aapcs host_ucontext cortex_m xtensa_lx106 riscv32
    framework_esp8266)  # framework_*: hosted by a vendor framework, no kernel
set(KAIROS_PORT "${KAIROS_PORT_DEFAULT}" CACHE STRING "Port under port/")
set_property(CACHE KAIROS_PORT PROPERTY STRINGS ${kairos_ports})
if(NOT KAIROS_PORT IN_LIST kairos_ports)
    message(FATAL_ERROR "KAIROS_PORT=${KAIROS_PORT}: not one of ${kairos_ports}")
endif()

# kairos_port_interface(target DIR dir [IRQ_INLINE] [NO_IDLE_IN_SWITCH]
# [DIRECT_SWITCH] HEADERS h...) is what a port.cmake calls to give target the port's public
# face, the same in the build tree and installed:
# - dir (under port/) becomes a PUBLIC include directory, installed as
#   include/kairos/port/<dir name>/, with HEADERS, the headers a consumer
#   may include (installed by cmake/install-rules.cmake);
# - kairos/port_config.hpp is generated for target (cmake/port_config.hpp.in):
#   it names the port and records IRQ_INLINE, whether the port defines
#   irq_disable(), irq_restore(), in_isr() and request_switch() inline in
#   HEADERS' kairos_port_irq.hpp. include/kairos/port.hpp decides inline or
#   call from that record alone, never from what the include path finds;
#   NO_IDLE_IN_SWITCH records that the port's switch must not wait in
#   port::idle() (KAIROS_PORT_IDLE_IN_SWITCH 0: the kernel idles in its own
#   context); DIRECT_SWITCH records that the port defines port::switch_to()
#   (KAIROS_PORT_DIRECT_SWITCH 1), and the top-level KAIROS_MAX_SYSCALL_PRIO
#   is written there too.
function(kairos_port_interface target)
    cmake_parse_arguments(arg "IRQ_INLINE;NO_IDLE_IN_SWITCH;DIRECT_SWITCH" "DIR" "HEADERS" ${ARGN})
    get_filename_component(dir_name ${arg_DIR} NAME)
    if(arg_IRQ_INLINE AND NOT "kairos_port_irq.hpp" IN_LIST arg_HEADERS)
        message(FATAL_ERROR "kairos_port_interface: IRQ_INLINE needs kairos_port_irq.hpp in HEADERS")
    endif()
    set(KAIROS_PORT_NAME ${KAIROS_PORT})
    if(arg_IRQ_INLINE)
        set(KAIROS_PORT_IRQ_INLINE 1)
    else()
        set(KAIROS_PORT_IRQ_INLINE 0)
    endif()
    if(arg_NO_IDLE_IN_SWITCH)
        set(KAIROS_PORT_IDLE_IN_SWITCH 0)
    else()
        set(KAIROS_PORT_IDLE_IN_SWITCH 1)
    endif()
    if(arg_DIRECT_SWITCH)
        set(KAIROS_PORT_DIRECT_SWITCH 1)
    else()
        set(KAIROS_PORT_DIRECT_SWITCH 0)
    endif()
    set(gen ${PROJECT_BINARY_DIR}/kairos_generated/${target})
    configure_file(${PROJECT_SOURCE_DIR}/cmake/port_config.hpp.in ${gen}/kairos/port_config.hpp @ONLY)
    target_include_directories(${target} PUBLIC
        $<BUILD_INTERFACE:${gen}>
        $<BUILD_INTERFACE:${arg_DIR}>
        $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/kairos/port/${dir_name}>)
    list(TRANSFORM arg_HEADERS PREPEND ${arg_DIR}/)
    set_target_properties(${target} PROPERTIES
        KAIROS_PORT_CONFIG_HEADER ${gen}/kairos/port_config.hpp
        KAIROS_PORT_HEADERS "${arg_HEADERS}"
        KAIROS_PORT_HEADERS_DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kairos/port/${dir_name})
endfunction()

# kairos_library_variant(<name> [defines...]) adds <name>, a static copy of
# kairos (its sources and port/${KAIROS_PORT}) compiled with kairos's
# public definitions plus [defines...]: for a program that needs a kernel
# option the build's kairos lacks (KAIROS_TRACE, KAIROS_TIME_SLICE_US).
# Link it instead of kairos, never beside it.
function(kairos_library_variant name)
    get_target_property(srcs kairos SOURCES)
    list(FILTER srcs EXCLUDE REGEX "/port/")
    list(TRANSFORM srcs PREPEND ${PROJECT_SOURCE_DIR}/src/ REGEX "^[^/]")
    add_library(${name} STATIC ${srcs})
    target_compile_features(${name} PUBLIC cxx_std_17)
    target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR}/include)
    get_target_property(defs kairos INTERFACE_COMPILE_DEFINITIONS)
    target_compile_definitions(${name} PUBLIC ${defs} ${ARGN})
    target_link_libraries(${name} PRIVATE kairos_warnings)
    include(${PROJECT_SOURCE_DIR}/port/${KAIROS_PORT}/port.cmake)
    kairos_port_sources(${name})
endfunction()

# kairos_add_port(target) adds the sources of port/${KAIROS_PORT} to target.
# Each port folder has a port.cmake that defines kairos_port_sources(target),
# which calls kairos_port_interface() once.
function(kairos_add_port target)
    set(dir ${PROJECT_SOURCE_DIR}/port/${KAIROS_PORT})
    if(EXISTS ${dir}/port.cmake)
        include(${dir}/port.cmake)
        kairos_port_sources(${target})
    endif()
endfunction()

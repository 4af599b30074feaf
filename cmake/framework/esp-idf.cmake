# SPDX-License-Identifier: MIT
# The ESP-IDF component build (CMakeLists.txt includes this when
# ESP_PLATFORM is set, before project(): a component may not call it).
# Sources: what a framework build needs, the portable non-kernel sources and
# port/framework_esp32 (the kernel is not part of it: FreeRTOS is). The
# sizes come from Kconfig (CONFIG_KAIROS_*) as the same definitions the
# CMake cache options give.
# Every chip target (esp32, esp32s3, esp32c3, ...) takes the one port
# port/framework_esp32; ESP-IDF's host target (linux) has no esp_timer ISR
# or SMP critical sections of that kind and is refused.
if(IDF_TARGET STREQUAL "linux")
    message(FATAL_ERROR "kairos component: IDF_TARGET linux is not supported (build kairos with CMake for the host)")
endif()
set(_kairos_root ${CMAKE_CURRENT_LIST_DIR}/../..)
get_filename_component(_kairos_root ${_kairos_root} ABSOLUTE)
file(GLOB_RECURSE _kairos_port_sources CONFIGURE_DEPENDS
     ${_kairos_root}/port/framework_esp32/*.c ${_kairos_root}/port/framework_esp32/*.cpp
     ${_kairos_root}/port/framework_esp32/*.S)
idf_component_register(
    SRCS ${_kairos_root}/src/assert.cpp ${_kairos_port_sources}
    INCLUDE_DIRS ${_kairos_root}/include ${_kairos_root}/port/framework_esp32
    REQUIRES esp_timer freertos
    LDFRAGMENTS ${_kairos_root}/linker.lf)
if(CMAKE_BUILD_EARLY_EXPANSION)  # ESP-IDF's first pass collects requirements only
    return()
endif()
foreach(_kairos_opt IN ITEMS KAIROS_PRIO_LEVELS KAIROS_MAX_THREADS KAIROS_MUTEX_MAX_HELD)
    if(NOT DEFINED CONFIG_${_kairos_opt})
        message(FATAL_ERROR "kairos component: CONFIG_${_kairos_opt} is not set (Kconfig)")
    endif()
    target_compile_definitions(${COMPONENT_LIB} PUBLIC ${_kairos_opt}=${CONFIG_${_kairos_opt}})
endforeach()
if(CONFIG_KAIROS_RUNQUEUE_CLZ_REVERSED)
    target_compile_definitions(${COMPONENT_LIB} PUBLIC KAIROS_RUNQUEUE_CLZ=1)
elseif(CONFIG_KAIROS_RUNQUEUE_CLZ_NATURAL)
    target_compile_definitions(${COMPONENT_LIB} PUBLIC KAIROS_RUNQUEUE_CLZ=0)
endif()
target_compile_features(${COMPONENT_LIB} PUBLIC cxx_std_17)

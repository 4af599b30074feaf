# SPDX-License-Identifier: MIT
# Every kernel and port test runs on every host port of this processor.
# tests/CMakeLists.txt builds each tests/port/*_test.cpp and
# tests/unit/kernel*_test.cpp against kairos (port ${KAIROS_PORT}); this
# file builds them again against a copy of kairos per other host port, and
# once with the run-queue bitmap in natural (lsb) order and bits.hpp's
# software path (KAIROS_HAS_CLZ=0: what an ARMv6-M core gets), and once with
# 256 priority levels (two-level bitmap). Each copy is
# its own static library, so a test never links two ports.
set(kairos_variant_ports)
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|amd64|AMD64)$")
    set(kairos_variant_ports x86_64_sysv host_ucontext)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
    set(kairos_variant_ports aarch64_aapcs host_ucontext)
else()
    set(kairos_variant_ports host_ucontext)
endif()
# TSan cannot follow an assembly stack switch (no fiber hooks there): under
# TSan only the ucontext port, which has them.
if(CMAKE_CXX_FLAGS MATCHES "sanitize=thread")
    set(kairos_variant_ports host_ucontext)
endif()

get_target_property(kairos_core_sources kairos SOURCES)
list(FILTER kairos_core_sources EXCLUDE REGEX "/port/")

file(GLOB kairos_kernel_tests CONFIGURE_DEPENDS
     ${CMAKE_CURRENT_LIST_DIR}/*_test.cpp
     ${CMAKE_CURRENT_LIST_DIR}/../unit/kernel*_test.cpp)

# kairos_kernel_variant(<suffix> <port> [defines...]) adds the library
# kairos_<suffix> and one test executable <test>-<suffix> per kernel test
# (only those matching kairos_variant_tests_regex when the caller sets it).
function(kairos_kernel_variant suffix port)
    set(lib kairos_${suffix})
    add_library(${lib} STATIC ${kairos_core_sources})
    target_compile_features(${lib} PUBLIC cxx_std_17)
    target_include_directories(${lib} PUBLIC ${PROJECT_SOURCE_DIR}/include)
    target_compile_definitions(${lib} PUBLIC ${ARGN})
    target_link_libraries(${lib} PRIVATE kairos_warnings)
    set(KAIROS_PORT ${port})
    include(${PROJECT_SOURCE_DIR}/port/${port}/port.cmake)
    kairos_port_sources(${lib})
    foreach(src IN LISTS kairos_kernel_tests)
        get_filename_component(name ${src} NAME_WE)
        if(DEFINED kairos_variant_tests_regex AND NOT name MATCHES "${kairos_variant_tests_regex}")
            continue()
        endif()
        set(exe ${name}-${suffix})
        add_executable(${exe} ${src} ${CMAKE_CURRENT_SOURCE_DIR}/support/ktest_gtest.cpp)
        target_include_directories(${exe} PRIVATE support scenarios)
        target_compile_definitions(${exe} PRIVATE KAIROS_TEST_PORT="${port}")
        target_link_libraries(${exe} PRIVATE ${lib} GTest::gtest Threads::Threads kairos_warnings)
        if(TARGET GTest::gtest_main)
            target_link_libraries(${exe} PRIVATE GTest::gtest_main)
        else()
            target_link_libraries(${exe} PRIVATE gtest_main)
        endif()
        add_test(NAME ${exe} COMMAND ${exe})
        set_tests_properties(${exe} PROPERTIES LABELS port TIMEOUT 600)
    endforeach()
endfunction()

foreach(p IN LISTS kairos_variant_ports)
    if(NOT p STREQUAL KAIROS_PORT)
        kairos_kernel_variant(${p} ${p})
    endif()
endforeach()
kairos_kernel_variant(lsb ${KAIROS_PORT} KAIROS_RUNQUEUE_CLZ=0 KAIROS_HAS_CLZ=0)
# 256 priorities: the two-level bitmap (summary word over 8 words) in the kernel.
kairos_kernel_variant(prio256 ${KAIROS_PORT} KAIROS_PRIO_LEVELS=256)
# The trace hooks compiled in (docs/trace.md): every kernel path records
# into a ring nobody drains, so the full-ring path runs too.
kairos_kernel_variant(trace ${KAIROS_PORT} KAIROS_TRACE=1)
# Time slicing compiled in (2 ms slices): only the slicing scenarios, the
# one test a host tick (its virtual alarm) drives.
set(kairos_variant_tests_regex "^kernel_timeslice_test$")
kairos_kernel_variant(slice ${KAIROS_PORT} KAIROS_TIME_SLICE_US=2000)
unset(kairos_variant_tests_regex)

# The default-port builds made by tests/CMakeLists.txt need the port name.
foreach(src IN LISTS kairos_kernel_tests)
    get_filename_component(name ${src} NAME_WE)
    if(TARGET ${name})
        target_compile_definitions(${name} PRIVATE KAIROS_TEST_PORT="${KAIROS_PORT}")
    endif()
endforeach()

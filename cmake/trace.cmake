# SPDX-License-Identifier: MIT
# Helpers for the traced demo (examples/trace, tests/target).
include_guard(GLOBAL)

include(${CMAKE_CURRENT_LIST_DIR}/plot-python.cmake)

# kairos_traced_library(<out-var> <ring>) sets out-var to a kairos library
# with the trace hooks: kairos itself when built with KAIROS_TRACE, otherwise
# kairos_traced, the same sources and port built with KAIROS_TRACE=1 and a
# ring of <ring> records.
function(kairos_traced_library out ring)
    if(KAIROS_TRACE)
        set(${out} kairos PARENT_SCOPE)
        return()
    endif()
    if(NOT TARGET kairos_traced)
        kairos_library_variant(kairos_traced KAIROS_TRACE=1 KAIROS_TRACE_RING=${ring})
    endif()
    set(${out} kairos_traced PARENT_SCOPE)
endfunction()

# kairos_trace_demo_target(<exe> <runner>) adds the target trace-demo: runs
# <exe> (through the command list <runner>, e.g. a QEMU runner, or directly
# when empty) into trace-demo.txt and converts it with tools/kairos-trace
# into trace-demo.json and trace-demo.png in the executable's directory.
function(kairos_trace_demo_target exe runner)
    set(dir $<TARGET_FILE_DIR:${exe}>)
    set(tool ${PROJECT_SOURCE_DIR}/tools/kairos-trace)
    if(KAIROS_PLOT_PYTHON)
        set(py ${KAIROS_PLOT_PYTHON})
        set(png --png ${dir}/trace-demo.png)
    else()
        set(py ${Python3_EXECUTABLE})
        set(png)
    endif()
    string(REPLACE ";" "|" runner "${runner}")
    add_custom_target(trace-demo
        COMMAND ${CMAKE_COMMAND} "-DRUNNER=${runner}" -DEXE=$<TARGET_FILE:${exe}>
                -DOUT=${dir}/trace-demo.txt -P ${PROJECT_SOURCE_DIR}/cmake/run-to-file.cmake
        COMMAND ${py} ${tool} ${dir}/trace-demo.txt --json ${dir}/trace-demo.json ${png}
        DEPENDS ${exe}
        COMMENT "trace-demo: trace-demo.json and trace-demo.png beside ${exe}"
        VERBATIM)
endfunction()

# kairos_trace_demo_test(<exe> <runner>) adds the ctest trace.demo: runs
# <exe> as trace-demo does (into the test's own files), converts the dump
# to JSON and checks it with tests/trace/check-trace-demo (valid JSON, one
# lane per thread, one running slice per switch the kernel counted).
function(kairos_trace_demo_test exe runner)
    set(py ${Python3_EXECUTABLE})
    if(KAIROS_PLOT_PYTHON)
        set(py ${KAIROS_PLOT_PYTHON})
    endif()
    string(REPLACE ";" "|" runner "${runner}")
    set(base ${CMAKE_CURRENT_BINARY_DIR}/trace-demo-test)
    add_test(NAME trace.demo
             COMMAND ${CMAKE_COMMAND} "-DRUNNER=${runner}" -DEXE=$<TARGET_FILE:${exe}>
                     -DPYTHON=${py} -DTOOL=${PROJECT_SOURCE_DIR}/tools/kairos-trace
                     -DCHECK=${PROJECT_SOURCE_DIR}/tests/trace/check-trace-demo -DBASE=${base}
                     -P ${PROJECT_SOURCE_DIR}/tests/trace/trace-demo-test.cmake)
    set_tests_properties(trace.demo PROPERTIES LABELS trace TIMEOUT 300)
endfunction()

# kairos_trace_demo_firmware() (tests/target, every QEMU board but the
# cortex-m0 microbit) builds examples/trace as the
# firmware trace_demo.elf for the QEMU board and adds the trace-demo target
# and the trace.demo test, run under QEMU (semihosting console). Without
# KAIROS_TRACE the firmware links kairos_traced instead of kairos.
function(kairos_trace_demo_firmware)
    if(KAIROS_MCU STREQUAL "cortex-m0")
        # The microbit's 16 KiB of RAM do not hold five demo stacks and the ring.
        message(STATUS "trace-demo: not on cortex-m0 (microbit RAM)")
        return()
    endif()
    kairos_traced_library(lib 512)
    set(src ${PROJECT_SOURCE_DIR}/examples/trace/trace_demo.cpp)
    kairos_add_firmware(trace_demo ${src} LIBRARY ${lib})
    kairos_trace_demo_target(trace_demo "${KAIROS_QEMU};-kernel")
    kairos_trace_demo_test(trace_demo "${KAIROS_QEMU};-kernel")
endfunction()

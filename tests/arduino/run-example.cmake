# SPDX-License-Identifier: MIT
# run-example.cmake: one arduino.<example>.<board> test (tests/arduino/
# CMakeLists.txt). cmake -DBUILDER= -DROOT= -DLIB= -DFQBN= -DSKETCH= -DBUILD=
# -P run-example.cmake -- <QEMU command up to -kernel>: compiles SKETCH with
# arduino-builder for FQBN against the library LIB and the project's test
# platform, then runs <QEMU command> <firmware>. Passes only on exit status 0
# and a "kairos: PASS" line (the stand-in cores exit 0/1 on the sketch's
# verdict line, 97 on a panic, 98 on a fault, 99 past the virtual time limit).
set(qemu)
set(take OFF)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
    if(take)
        list(APPEND qemu "${CMAKE_ARGV${i}}")
    elseif(CMAKE_ARGV${i} STREQUAL "--")
        set(take ON)
    endif()
endforeach()

# ctags' pattern: the hardware-level platform.txt Debian's arduino-builder ships.
file(REMOVE_RECURSE ${BUILD})
file(MAKE_DIRECTORY ${BUILD} ${BUILD}/tools)
execute_process(
    COMMAND ${BUILDER} -compile -warnings all -hardware /usr/share/arduino-builder
            -hardware ${ROOT}/tests/arduino/hardware -tools ${BUILD}/tools -libraries ${LIB}/..
            -fqbn ${FQBN} -build-path ${BUILD} -prefs kairos.root=${ROOT}
            -core-api-version 10819 ${SKETCH}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "arduino-builder failed (${rc})")
endif()
if(out MATCHES "warning:")
    message(FATAL_ERROR "arduino-builder: warnings in the library or the example")
endif()
get_filename_component(name ${SKETCH} NAME)
execute_process(COMMAND ${qemu} ${BUILD}/${name}.elf
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(NOT rc STREQUAL "0")
    message(FATAL_ERROR "exit status ${rc}, expected 0")
endif()
if(NOT out MATCHES "kairos: PASS")
    message(FATAL_ERROR "no 'kairos: PASS' line")
endif()

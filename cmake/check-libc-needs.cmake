# SPDX-License-Identifier: MIT
# cmake -DNM=<nm> -DLIB=<library> -DLIBGCC=<libgcc.a> -DALLOWED=<a,b,...> -P check-libc-needs.cmake
# fails if LIB references a symbol that neither LIB itself, LIBGCC nor the
# list ALLOWED defines, naming it: what a C library must provide to kairos
# is ALLOWED (docs/porting.md, "C library"), nothing more. kairos's own
# names (kairos_*, kairos::) and CMSIS handlers (*_Handler) are the board's
# or the firmware's (docs/kernel.md, "The port contract"), not the C
# library's.
cmake_minimum_required(VERSION 3.21)
string(REPLACE "," ";" ALLOWED "${ALLOWED}")

function(defined_in file out)
    execute_process(COMMAND ${NM} -g --defined-only ${file} OUTPUT_VARIABLE text RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "${NM} --defined-only ${file} failed (${rc})")
    endif()
    string(REGEX MATCHALL "[0-9a-f]+ [A-Za-z] [^\n]+" rows "${text}")
    set(names)
    foreach(row IN LISTS rows)
        string(REGEX REPLACE "^[0-9a-f]+ [A-Za-z] " "" name "${row}")
        list(APPEND names ${name})
    endforeach()
    set(${out} ${names} PARENT_SCOPE)
endfunction()

execute_process(COMMAND ${NM} -u ${LIB} OUTPUT_VARIABLE text RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NM} -u ${LIB} failed (${rc})")
endif()
string(REGEX MATCHALL "[ \t]+[Uw] [^\n]+" rows "${text}")
defined_in(${LIB} own)
defined_in(${LIBGCC} gcc)
set(missing)
foreach(row IN LISTS rows)
    if(row MATCHES "^[ \t]+w ")
        continue()  # weak: resolves to 0 when nobody defines it
    endif()
    string(REGEX REPLACE "^[ \t]+U " "" name "${row}")
    if(name MATCHES "^(kairos_|_ZN6kairos)|_Handler$")
        continue()
    endif()
    if(NOT name IN_LIST own AND NOT name IN_LIST gcc AND NOT name IN_LIST ALLOWED)
        list(APPEND missing ${name})
    endif()
endforeach()
if(missing)
    list(REMOVE_DUPLICATES missing)
    message(FATAL_ERROR "${LIB} needs from the C library more than '${ALLOWED}': ${missing}")
endif()
message(STATUS "${LIB} needs from the C library at most: ${ALLOWED}")

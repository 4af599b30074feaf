# SPDX-License-Identifier: MIT
# cmake -DOBJDUMP=<objdump> -DLIB=<library> -DFORBIDDEN=<mnemonic> -P check-no-insn.cmake
# fails if the disassembly of LIB contains the instruction FORBIDDEN, naming
# the functions that use it.
execute_process(COMMAND ${OBJDUMP} -d ${LIB} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${OBJDUMP} -d ${LIB} failed (${rc})")
endif()
string(REPLACE ";" "," out "${out}")
string(REPLACE "\n" ";" lines "${out}")
set(fn "?")
set(names)
foreach(line IN LISTS lines)
    if(line MATCHES "^[0-9a-f]+ <(.+)>:$")
        set(fn ${CMAKE_MATCH_1})
    elseif(line MATCHES "[\t ]${FORBIDDEN}([\t ]|$)")
        list(APPEND names ${fn})
    endif()
endforeach()
if(names)
    list(REMOVE_DUPLICATES names)
    message(FATAL_ERROR "${LIB} uses '${FORBIDDEN}' in: ${names}")
endif()
message(STATUS "no '${FORBIDDEN}' in ${LIB}")

# SPDX-License-Identifier: MIT
# The trace.demo test (cmake/trace.cmake): run the demo into BASE.txt,
# convert it with TOOL into BASE.json, check that with CHECK.
execute_process(COMMAND ${CMAKE_COMMAND} -DRUNNER=${RUNNER} -DEXE=${EXE} -DOUT=${BASE}.txt
                        -P ${CMAKE_CURRENT_LIST_DIR}/../../cmake/run-to-file.cmake
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the demo failed")
endif()
execute_process(COMMAND ${PYTHON} ${TOOL} ${BASE}.txt --json ${BASE}.json RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "kairos-trace failed")
endif()
execute_process(COMMAND ${PYTHON} ${CHECK} ${BASE}.txt ${BASE}.json RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the trace JSON check failed")
endif()

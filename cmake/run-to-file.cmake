# SPDX-License-Identifier: MIT
# cmake -DRUNNER=<a|b|c> -DEXE=<program> -DOUT=<file> -P run-to-file.cmake:
# runs [RUNNER...] EXE with its standard output and error (a QEMU
# semihosting console) into OUT (RUNNER: a command
# list joined with '|', empty to run EXE directly); fails when it fails.
string(REPLACE "|" ";" cmd "${RUNNER}")
execute_process(COMMAND ${cmd} ${EXE} OUTPUT_FILE ${OUT} ERROR_FILE ${OUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${EXE}: exit status ${rc} (output in ${OUT})")
endif()

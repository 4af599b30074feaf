# SPDX-License-Identifier: MIT
# install-release.cmake: configure KAIROS_SOURCE as a Release library only
# (no tests, bench or examples) in BINARY, build it and install it to PREFIX.
file(REMOVE_RECURSE ${BINARY} ${PREFIX})
foreach(step
        "-S;${KAIROS_SOURCE};-B;${BINARY};-G;${GENERATOR};-DCMAKE_BUILD_TYPE=Release;-DCMAKE_C_COMPILER=${CC};-DCMAKE_CXX_COMPILER=${CXX};-DKAIROS_BUILD_TESTS=OFF;-DKAIROS_BUILD_BENCH=OFF;-DKAIROS_BUILD_EXAMPLES=OFF;-DKAIROS_INSTALL=ON"
        "--build;${BINARY}"
        "--install;${BINARY};--prefix;${PREFIX}")
    execute_process(COMMAND ${CMAKE_COMMAND} ${step} RESULT_VARIABLE rc)
    if(rc)
        message(FATAL_ERROR "release kairos: cmake ${step} failed")
    endif()
endforeach()

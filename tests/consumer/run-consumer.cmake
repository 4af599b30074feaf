# SPDX-License-Identifier: MIT
# run-consumer.cmake: configure, build and run the consumer project in MODE
# (project/CMakeLists.txt). BUILD_TYPE is the consumer's own build type.
# EXPECT_BUILD_ERROR: the build must fail with output matching it (and
# nothing is run). TOOLCHAIN (with
# CPU_FLAGS): cross-compile with that toolchain file; then QEMU (the emulator
# command line without -kernel) runs RUN_TARGET.elf, which must exit with
# EXPECT_EXIT (default 0) and print EXPECT_OUTPUT; without QEMU the firmware
# is built only. MODE git first makes a repository of KAIROS_SOURCE.
file(REMOVE_RECURSE ${BINARY})
set(extra)
if(MODE STREQUAL "git")
    include(${CMAKE_CURRENT_LIST_DIR}/make-git-repo.cmake)
    kairos_make_git_repo(${KAIROS_SOURCE} ${BINARY}-repo tag)
    list(APPEND extra -DKAIROS_GIT=file://${BINARY}-repo -DKAIROS_GIT_TAG=${tag})
endif()
if(DEFINED CONSUMER_MAX_THREADS)
    list(APPEND extra -DKAIROS_CONSUMER_MAX_THREADS=${CONSUMER_MAX_THREADS})
endif()
if(DEFINED TOOLCHAIN)
    # A cross project: compilers and flags come from the toolchain file, and
    # packages are found under CMAKE_FIND_ROOT_PATH (the toolchain searches
    # only there, as cross toolchains do).
    list(APPEND extra -DCMAKE_TOOLCHAIN_FILE=${TOOLCHAIN} "-DFW_CPU_FLAGS=${CPU_FLAGS}"
                      -DCMAKE_FIND_ROOT_PATH=${PREFIX})
else()
    list(APPEND extra -DCMAKE_PREFIX_PATH=${PREFIX} -DCMAKE_CXX_COMPILER=${CXX}
                      -DCMAKE_C_COMPILER=${CC} "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}"
                      "-DCMAKE_EXE_LINKER_FLAGS=${LINK_FLAGS}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE} -B ${BINARY} -G ${GENERATOR}
                    -DKAIROS_CONSUME=${MODE} -DKAIROS_SOURCE=${KAIROS_SOURCE}
                    -DCMAKE_BUILD_TYPE=${BUILD_TYPE} ${extra}
                RESULT_VARIABLE rc)
if(rc)
    message(FATAL_ERROR "consumer (${MODE}): configure failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY} RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(DEFINED EXPECT_BUILD_ERROR)
    if(NOT rc)
        message(FATAL_ERROR "consumer (${MODE}): the build succeeded; expected: ${EXPECT_BUILD_ERROR}")
    endif()
    if(NOT out MATCHES "${EXPECT_BUILD_ERROR}")
        message(FATAL_ERROR "consumer (${MODE}): the build failed without '${EXPECT_BUILD_ERROR}':\n${out}")
    endif()
    message(STATUS "consumer (${MODE}): refused as expected")
    return()
endif()
if(rc)
    message(FATAL_ERROR "consumer (${MODE}): build failed:\n${out}")
endif()
if(DEFINED TOOLCHAIN)
    if(NOT DEFINED QEMU)
        message(STATUS "consumer (${MODE}): built (no QEMU machine for this memory map: not run)")
        return()
    endif()
    if(NOT DEFINED EXPECT_EXIT)
        set(EXPECT_EXIT 0)
    endif()
    separate_arguments(qemu UNIX_COMMAND "${QEMU}")
    execute_process(COMMAND ${qemu} -kernel ${BINARY}/${RUN_TARGET}.elf TIMEOUT 60
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
    message("${out}")
    if(NOT rc STREQUAL "${EXPECT_EXIT}" OR NOT out MATCHES "${EXPECT_OUTPUT}")
        message(FATAL_ERROR "consumer (${MODE}): ${RUN_TARGET} exited ${rc}, expected ${EXPECT_EXIT} and '${EXPECT_OUTPUT}'")
    endif()
    message(STATUS "consumer (${MODE}): ${RUN_TARGET} ran under QEMU, exit ${rc} as expected")
    return()
endif()
execute_process(COMMAND ${BINARY}/consumer RESULT_VARIABLE rc)
if(rc)
    message(FATAL_ERROR "consumer (${MODE}): run failed with ${rc}")
endif()
message(STATUS "consumer (${MODE}): ok")

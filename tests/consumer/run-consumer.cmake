# run-consumer.cmake: configure, build and run the consumer project in MODE.
file(REMOVE_RECURSE ${BINARY})
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE} -B ${BINARY} -G ${GENERATOR}
                    -DKAIROS_CONSUME=${MODE} -DCMAKE_PREFIX_PATH=${PREFIX}
                    -DKAIROS_SOURCE=${KAIROS_SOURCE} -DCMAKE_CXX_COMPILER=${CXX}
                    "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${LINK_FLAGS}"
                    -DCMAKE_BUILD_TYPE=${BUILD_TYPE}
                RESULT_VARIABLE rc)
if(rc)
    message(FATAL_ERROR "consumer (${MODE}): configure failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY} RESULT_VARIABLE rc)
if(rc)
    message(FATAL_ERROR "consumer (${MODE}): build failed")
endif()
execute_process(COMMAND ${BINARY}/consumer RESULT_VARIABLE rc)
if(rc)
    message(FATAL_ERROR "consumer (${MODE}): run failed with ${rc}")
endif()
message(STATUS "consumer (${MODE}): ok")

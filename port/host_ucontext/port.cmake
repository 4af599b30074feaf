# host_ucontext: the reference port (swapcontext, sanitizer fiber hooks).
function(kairos_port_sources target)
    target_sources(${target} PRIVATE ${PROJECT_SOURCE_DIR}/port/host_ucontext/port.cpp
                   ${PROJECT_SOURCE_DIR}/port/host_common/host.cpp)
    target_include_directories(${target} PUBLIC
        $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/port/host_common>)
endfunction()

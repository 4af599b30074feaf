# Sources of this hosted port. The context switch arrives with the kernel.
function(kairos_port_sources target)
    target_sources(${target} PRIVATE ${PROJECT_SOURCE_DIR}/port/host_common/host.cpp)
endfunction()

# x86-64 SysV host port: switch.S (call + ret) + the shared host hooks.
function(kairos_port_sources target)
    set(dir ${PROJECT_SOURCE_DIR}/port/x86_64_sysv)
    target_sources(${target} PRIVATE ${dir}/switch.S ${dir}/port.cpp
                   ${PROJECT_SOURCE_DIR}/port/host_common/host.cpp)
    target_include_directories(${target} PUBLIC
        $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/port/host_common>)
endfunction()

# AArch64 AAPCS64 host port: switch.S (br x30, not ret) + the shared host hooks.
function(kairos_port_sources target)
    set(dir ${PROJECT_SOURCE_DIR}/port/aarch64_aapcs)
    target_sources(${target} PRIVATE ${dir}/switch.S ${dir}/port.cpp
                   ${PROJECT_SOURCE_DIR}/port/host_common/host.cpp)
    target_include_directories(${target} PUBLIC
        $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/port/host_common>)
endfunction()

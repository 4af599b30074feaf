# SPDX-License-Identifier: MIT
# Install rules: headers, the library, the compat target and a CMake package,
# so find_package(kairos) works for an installed copy.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/kairos
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The port's public headers and the generated record of the port
# (kairos_port_interface() in cmake/port.cmake); the exported include
# directories point at them.
get_target_property(kairos_port_config kairos KAIROS_PORT_CONFIG_HEADER)
get_target_property(kairos_port_headers kairos KAIROS_PORT_HEADERS)
get_target_property(kairos_port_headers_dest kairos KAIROS_PORT_HEADERS_DESTINATION)
install(FILES ${kairos_port_config} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kairos)
install(FILES ${kairos_port_headers} DESTINATION ${kairos_port_headers_dest})
install(TARGETS kairos kairos_esp8266_compat
        EXPORT kairosTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT kairosTargets NAMESPACE kairos::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kairos)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/kairosConfig.cmake.in
    ${PROJECT_BINARY_DIR}/kairosConfig.cmake
    INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kairos)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/kairosConfigVersion.cmake
    COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/kairosConfig.cmake ${PROJECT_BINARY_DIR}/kairosConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kairos)

# SPDX-License-Identifier: MIT
# Sources of port/framework_esp32: kairos hosted by ESP-IDF or arduino-esp32
# (time, critical sections, console, abort, timers and task notifications
# are the framework's). No kernel, no vectors, no __atomic_* helpers (the
# framework has them where the core lacks CAS). ESP-IDF builds it through
# the component branch (cmake/framework/esp-idf.cmake), PlatformIO through
# library.json. This file records the port's sources and interface in the
# form every port/<name>/port.cmake has; scripts/make-port-config renders
# kairos/port_config.hpp from its kairos_port_interface() flags. It is not
# among cmake/port.cmake's KAIROS_PORT choices: no CMake preset builds for
# ESP-IDF.
function(kairos_port_sources target)
    set(dir ${PROJECT_SOURCE_DIR}/port/framework_esp32)
    target_sources(${target} PRIVATE ${dir}/port.cpp ${dir}/ticker.cpp)
    kairos_port_interface(${target} DIR ${dir} HEADERS kairos_framework.hpp)
endfunction()

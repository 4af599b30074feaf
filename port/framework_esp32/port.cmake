# SPDX-License-Identifier: MIT
# Sources of port/framework_esp32: kairos hosted by ESP-IDF or arduino-esp32
# (time, critical sections, console, abort, timers and task notifications
# are the framework's). No kernel, no vectors, no __atomic_* helpers (the
# framework has them where the core lacks CAS). ESP-IDF builds it through
# the component branch (cmake/framework/esp-idf.cmake), PlatformIO through
# library.json; this file records the port's interface for
# kairos/port_config.hpp (scripts/make-port-config) and serves a CMake
# build with KAIROS_PORT=framework_esp32 and the framework on the include
# path.
function(kairos_port_sources target)
    set(dir ${PROJECT_SOURCE_DIR}/port/framework_esp32)
    target_sources(${target} PRIVATE ${dir}/port.cpp ${dir}/ticker.cpp)
    kairos_port_interface(${target} DIR ${dir} HEADERS kairos_framework.hpp)
endfunction()

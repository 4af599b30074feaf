# SPDX-License-Identifier: MIT
# KAIROS_PLOT_PYTHON: the Python 3 that draws kairos's PNGs (bench/plot-bench,
# tools/kairos-trace), the first of PATH's python3 and the system's that
# imports matplotlib. Debian's python3-matplotlib (scripts/install-deps group
# "plots") is for /usr/bin/python3, which a pyenv or venv python3 first on
# PATH does not see. Empty when none does: the callers then write no PNG and
# say so.
include_guard(GLOBAL)

find_package(Python3 COMPONENTS Interpreter QUIET)
set(KAIROS_PLOT_PYTHON "" CACHE FILEPATH "Python 3 with matplotlib for the PNGs of plot-bench and kairos-trace")
if(NOT KAIROS_PLOT_PYTHON)
    foreach(_kp_py IN ITEMS "${Python3_EXECUTABLE}" /usr/bin/python3)
        if(_kp_py AND EXISTS "${_kp_py}" AND NOT KAIROS_PLOT_PYTHON)
            execute_process(COMMAND ${_kp_py} -c "import matplotlib"
                            RESULT_VARIABLE _kp_rc OUTPUT_QUIET ERROR_QUIET)
            if(_kp_rc EQUAL 0)
                set(KAIROS_PLOT_PYTHON "${_kp_py}" CACHE FILEPATH
                    "Python 3 with matplotlib for the PNGs of plot-bench and kairos-trace" FORCE)
            endif()
        endif()
    endforeach()
endif()
if(NOT KAIROS_PLOT_PYTHON)
    message(STATUS "kairos: no Python 3 with matplotlib (scripts/install-deps plots): no PNGs from run-bench and trace-demo")
endif()

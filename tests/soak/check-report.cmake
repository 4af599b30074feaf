# SPDX-License-Identifier: MIT
# check-report.cmake: runs kairos_soak with small counts and checks its
# report. -DSOAK=<binary> -DINJECT=none|loss|dup|reorder|corrupt.
# none: exit status 0 and every ring and the deferred line report zero
# faults. A fault: exit status 1 and every line reports exactly the fault
# injected into its stream (a corrupt item is also lost: it is not counted
# as its sequence).
set(names spsc_ring mpsc_ring circular_queue circular_queue_mp
          compat_circular_queue compat_circular_queue_mp deferred)
set(expect_none "lost 0 duplicated 0 reordered 0 corrupt 0")
set(expect_loss "lost 1 duplicated 0 reordered 0 corrupt 0")
set(expect_dup "lost 0 duplicated 1 reordered 0 corrupt 0")
set(expect_reorder "lost 0 duplicated 0 reordered 1 corrupt 0")
set(expect_corrupt "lost 1 duplicated 0 reordered 0 corrupt 1")
if(NOT DEFINED expect_${INJECT})
    message(FATAL_ERROR "check-report.cmake: bad INJECT '${INJECT}'")
endif()
set(args --items 200000 --deferred 200000)
if(NOT INJECT STREQUAL "none")
    list(APPEND args --inject ${INJECT})
endif()
execute_process(COMMAND ${SOAK} ${args} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
message("${out}${err}")
if(INJECT STREQUAL "none")
    set(want_rc 0)
else()
    set(want_rc 1)
endif()
if(NOT rc STREQUAL want_rc)
    message(FATAL_ERROR "kairos_soak exited with '${rc}', expected ${want_rc}")
endif()
foreach(n IN LISTS names)
    if(NOT out MATCHES "\n${n} +items [0-9]+ ${expect_${INJECT}} ")
        message(FATAL_ERROR "no '${n} ... ${expect_${INJECT}}' line in the report")
    endif()
endforeach()
if(NOT out MATCHES "total items [0-9]+ .*: (PASS|FAIL)")
    message(FATAL_ERROR "no total line in the report")
endif()

// kairos/kernel/config.hpp: compile-time sizes of the kernel.
//
// Each is a macro so a firmware build can set it with -D; every value is
// checked here, so an impossible configuration fails to compile.
#pragma once

#include <kairos/config.hpp>
#include <kairos/detail/prio_bitmap.hpp>

// KAIROS_PRIO_LEVELS: number of priorities, 0 highest. Up to 32 uses one
// bitmap word; up to 1024 a two-level bitmap.
#ifndef KAIROS_PRIO_LEVELS
#  define KAIROS_PRIO_LEVELS 32
#endif

// KAIROS_MAX_THREADS: size of the thread table (pids 1..KAIROS_MAX_THREADS).
#ifndef KAIROS_MAX_THREADS
#  define KAIROS_MAX_THREADS 32
#endif

// KAIROS_RUNQUEUE_CLZ: 1 stores the run-queue bitmap in reversed order (one
// CLZ finds the best level), 0 in natural order (lowest set bit). Defaults
// to whether CLZ is an instruction; override to test the other encoding.
#ifndef KAIROS_RUNQUEUE_CLZ
#  define KAIROS_RUNQUEUE_CLZ KAIROS_HAS_CLZ
#endif

// KAIROS_MUTEX_MAX_HELD: how many priority-inheritance mutexes one thread
// may hold at once (nesting depth); a deeper nesting is an assertion.
#ifndef KAIROS_MUTEX_MAX_HELD
#  define KAIROS_MUTEX_MAX_HELD 4
#endif

namespace kairos::kernel {

inline constexpr unsigned prio_levels = KAIROS_PRIO_LEVELS;
inline constexpr unsigned max_threads = KAIROS_MAX_THREADS;
inline constexpr detail::prio_encoding runqueue_encoding =
    KAIROS_RUNQUEUE_CLZ ? detail::prio_encoding::clz : detail::prio_encoding::lsb;

static_assert(prio_levels >= 2 && prio_levels <= 1024,
              "KAIROS_PRIO_LEVELS must be 2..1024 (idle needs a level of its own)");
static_assert(max_threads >= 1 && max_threads <= 1023,
              "KAIROS_MAX_THREADS must be 1..1023 (a pid must fit its field of the mutex word)");
static_assert(KAIROS_MUTEX_MAX_HELD >= 1 && KAIROS_MUTEX_MAX_HELD <= 32,
              "KAIROS_MUTEX_MAX_HELD must be 1..32");

}  // namespace kairos::kernel

// SPDX-License-Identifier: MIT
// kairos/kernel/config.hpp: compile-time sizes of the kernel.
//
// Each is a macro; every value is checked here, so an impossible
// configuration fails to compile. The compiled library and every
// translation unit that includes the kernel headers must agree on them: a
// CMake build sets them from the cache options of the same names, applied
// as PUBLIC definitions of kairos::kairos (exported with the installed
// package), and a translation unit compiled with other values fails to link
// on an undefined kairos_kernel_config_prio<P>_threads<T>_held<H>_clz<C>,
// spelling its own values (see KAIROS_KERNEL_CONFIG_SYMBOL below).
#pragma once

#include <kairos/config.hpp>
#include <kairos/detail/prio_bitmap.hpp>
#include <kairos/detail/time_slice_hook.hpp>  // KAIROS_TIME_SLICE_US

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

// time_slice_us: KAIROS_TIME_SLICE_US (kairos/detail/time_slice_hook.hpp),
// 0 when time slicing is off. A slice is measured on port::now_us() and
// checked at each tick, so it is rounded up to whole tick periods (1 ms on
// the MCU ports).
inline constexpr unsigned long time_slice_us = KAIROS_TIME_SLICE_US;
static_assert(KAIROS_TIME_SLICE_US >= 0 && KAIROS_TIME_SLICE_US <= 1000000000,
              "KAIROS_TIME_SLICE_US must be 0 (off) or 1..1000000000 microseconds");

}  // namespace kairos::kernel

// KAIROS_KERNEL_CONFIG_SYMBOL names the configuration above, e.g.
// kairos_kernel_config_prio32_threads32_held4_clz1 (the values must be
// plain decimal numbers). src/kernel_config.cpp defines it in the library;
// every translation unit that includes this header refers to the one its
// own sizes spell, so the link refuses a unit whose sizes differ from the
// library's. On ELF targets the reference sits in a non-allocated note
// (.note.kairos_config): linkers keep notes under --gc-sections, and it
// takes no memory in the program, only bytes in the ELF file. Elsewhere it
// is a pointer the compiler keeps (used), merged across units.
#define KAIROS_KERNEL_CONFIG_NAME_(p, t, h, c) kairos_kernel_config_prio##p##_threads##t##_held##h##_clz##c
#define KAIROS_KERNEL_CONFIG_NAME(p, t, h, c) KAIROS_KERNEL_CONFIG_NAME_(p, t, h, c)
#define KAIROS_KERNEL_CONFIG_SYMBOL                                               \
    KAIROS_KERNEL_CONFIG_NAME(KAIROS_PRIO_LEVELS, KAIROS_MAX_THREADS, KAIROS_MUTEX_MAX_HELD, \
                              KAIROS_RUNQUEUE_CLZ)

extern "C" const char KAIROS_KERNEL_CONFIG_SYMBOL;

#if defined(__ELF__) && defined(__GNUC__) && defined(__SIZEOF_POINTER__)
#  define KAIROS_KERNEL_CONFIG_STR_(x) #x
#  define KAIROS_KERNEL_CONFIG_STR(x) KAIROS_KERNEL_CONFIG_STR_(x)
// An ELF note: name "kairos", type 1, descriptor the symbol's address.
asm(".pushsection .note.kairos_config,\"\",%note\n\t"
    ".balign 4\n\t"
    ".long 7\n\t"
    ".long " KAIROS_KERNEL_CONFIG_STR(__SIZEOF_POINTER__) "\n\t"
    ".long 1\n\t"
    ".asciz \"kairos\"\n\t"
    ".balign 4\n\t"
    ".dc.a " KAIROS_KERNEL_CONFIG_STR(KAIROS_KERNEL_CONFIG_SYMBOL) "\n\t"
    ".balign 4\n\t"
    ".popsection");
#else
namespace kairos::detail {
[[gnu::used]] inline const char* const kernel_config_check = &KAIROS_KERNEL_CONFIG_SYMBOL;
}  // namespace kairos::detail
#endif

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

// KAIROS_KERNEL_CONFIG_SYMBOL names the configuration above, e.g.
// kairos_kernel_config_prio32_threads32_held4_clz1 (the values must be
// plain decimal numbers). src/kernel_config.cpp defines it in the library;
// kernel_config_check below refers to it from every translation unit that
// includes this header, so the link refuses a unit whose sizes differ from
// the library's. The reference is one pointer per program (merged across
// units). Under --gc-sections it is kept only where the toolchain can
// retain a section (host ELF toolchains); elsewhere (arm-none-eabi and
// xtensa GCC 12) the linker discards it unchecked, and agreement rests on
// the PUBLIC definitions alone.
#define KAIROS_KERNEL_CONFIG_NAME_(p, t, h, c) kairos_kernel_config_prio##p##_threads##t##_held##h##_clz##c
#define KAIROS_KERNEL_CONFIG_NAME(p, t, h, c) KAIROS_KERNEL_CONFIG_NAME_(p, t, h, c)
#define KAIROS_KERNEL_CONFIG_SYMBOL                                               \
    KAIROS_KERNEL_CONFIG_NAME(KAIROS_PRIO_LEVELS, KAIROS_MAX_THREADS, KAIROS_MUTEX_MAX_HELD, \
                              KAIROS_RUNQUEUE_CLZ)

extern "C" const char KAIROS_KERNEL_CONFIG_SYMBOL;

namespace kairos::detail {
#if defined(__GNUC__)
#  pragma GCC diagnostic push
#  pragma GCC diagnostic ignored "-Wattributes"  // retain: ignored where the assembler lacks it
[[gnu::used, gnu::retain]] inline const char* const kernel_config_check = &KAIROS_KERNEL_CONFIG_SYMBOL;
#  pragma GCC diagnostic pop
#else
inline const char* const kernel_config_check = &KAIROS_KERNEL_CONFIG_SYMBOL;
#endif
}  // namespace kairos::detail

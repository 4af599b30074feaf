// SPDX-License-Identifier: MIT
// kairos/detail/time_slice_hook.hpp: the time-slicing option and the hook a
// port's tick calls, for ports that include no kernel header; the checks
// and the user-facing constant are in kairos/kernel/config.hpp. No includes.
#pragma once

// KAIROS_TIME_SLICE_US: round-robin time slicing among threads of equal
// priority, the slice length in microseconds; 0 (the default) turns it off
// and compiles none of it in. A CMake cache option of the same name, applied
// as a PUBLIC definition of kairos::kairos like KAIROS_TRACE.
#ifndef KAIROS_TIME_SLICE_US
#  define KAIROS_TIME_SLICE_US 0
#endif

#if KAIROS_TIME_SLICE_US
extern "C" {
// kairos_sched_tick() is the kernel's slice check (src/time_slice.cpp): if
// the running thread's slice is used up and another thread of its priority
// is runnable, it moves the running thread to the end of its level and
// requests a switch (never switches itself). Defined by: kernel, only with
// KAIROS_TIME_SLICE_US. Called by: the port's periodic tick (MCUs:
// kairos_tick(), through KAIROS_SCHED_TICK()), or on hosts, which have no
// tick, by whatever interrupt stands in for one. Context: isr. Weak: null
// in a program that does not link the kernel, so a tick alone (tickers,
// the time base) does not pull the thread table in.
void kairos_sched_tick() noexcept __attribute__((weak));
}
#  define KAIROS_SCHED_TICK()                                  \
      do {                                                     \
          if (kairos_sched_tick != nullptr) kairos_sched_tick(); \
      } while (0)
#else
#  define KAIROS_SCHED_TICK() static_cast<void>(0)
#endif

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
// requests a switch (never switches itself). It returns true while the
// running thread shares its level (the check must run again on the next
// tick), false otherwise: the port then stores it in kairos_slice_ticking
// and may stop its periodic tick. Defined by: kernel, only
// with KAIROS_TIME_SLICE_US. Called by: the port's periodic tick (MCUs:
// kairos_tick(), through KAIROS_SCHED_TICK()), or on hosts, which have no
// tick, by whatever interrupt stands in for one. Context: isr. Weak: null
// in a program that does not link the kernel, so a tick alone (tickers,
// the time base) does not pull the thread table in.
bool kairos_sched_tick() noexcept __attribute__((weak));

// kairos_slice_ticking is true while time slicing has the port's tick
// running: the kernel sets it when the thread about to run, or the running
// one, shares its priority with another runnable thread, and then calls
// kairos_slice_tick_start(); the port clears it when kairos_sched_tick()
// returns false (KAIROS_SCHED_TICK()) and in port::idle() (no thread runs
// while the kernel idles, so nothing is sliced), and keeps its tick
// periodic while it is set. Why: the tick runs only while a slice can end,
// and an idle kernel stays tickless with slicing compiled in; the flag
// makes the kernel's check at each switch a load and a compare. Defined
// by: kernel (src/time_slice.cpp). Weak: its address is null in a program
// that does not link the kernel. Context: masked (plain accesses: the
// kernel's and the port's, all with interrupts masked).
extern bool kairos_slice_ticking __attribute__((weak));

// kairos_slice_tick_start() makes the port's tick periodic (at once, from
// a tickless wait) after the kernel set kairos_slice_ticking. Defined by:
// the MCU ports. Weak: null on hosts, which have no tick. Context: masked,
// thread or isr (the kernel's scheduling paths).
void kairos_slice_tick_start() noexcept __attribute__((weak));
}
// KAIROS_SCHED_TICK(keep) runs the slice check from the port's tick and
// stores in `keep` whether the tick is still needed for it (nothing when
// no kernel is linked); nothing at all when slicing is off.
#  define KAIROS_SCHED_TICK(keep)                               \
      do {                                                      \
          if (kairos_sched_tick != nullptr) (keep) = kairos_sched_tick(); \
      } while (0)
#else
#  define KAIROS_SCHED_TICK(keep) static_cast<void>(0)
#endif

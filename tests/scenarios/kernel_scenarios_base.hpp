// SPDX-License-Identifier: MIT
// What every portable kernel scenario (RIOT tests/core ported) shares: the
// stacks, the interrupt hook, the event log and begin()/spawn()/finish().
// Checks are KT_CHECK only, so tests/target can run the same functions on a
// microcontroller; the one thing a scenario needs from its host is a way to
// raise an interrupt (trigger_fn), and the port's stacks.
//
// Each scenario resets the kernel, creates its threads, runs the kernel
// until nothing can run (run_options::return_when_idle) and checks the
// order of events it logged. The scenarios are in one header per subsystem,
// all included by kernel_scenarios.hpp.
#pragma once

#include <kairos/kernel/msg.hpp>
#include <kairos/kernel/mutex.hpp>
#include <kairos/kernel/thread.hpp>
#include <kairos/kernel/thread_flags.hpp>
#include <kairos/port.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "ktest.hpp"

// Stack per scenario thread: sanitizer builds need a lot.
#ifndef KAIROS_SCENARIO_STACK
#  define KAIROS_SCENARIO_STACK (64 * 1024)
#endif

namespace scenarios::kernel {

namespace k = kairos::kernel;

inline constexpr std::size_t stack_size = KAIROS_SCENARIO_STACK;
alignas(16) inline unsigned char stacks[k::max_threads + 1][stack_size];
inline unsigned next_stack = 0;

// trigger_fn raises the interrupt whose handler the scenario installed with
// set_isr(); it returns after the handler ran (or was deferred by the mask).
using trigger_fn = void (*)();
inline void (*isr_body)() = nullptr;
// isr_entry() is what the host's signal (or an MCU's vector) must call.
inline void isr_entry() {
    if (isr_body != nullptr) isr_body();
}

// event_log records small integers in order.
struct event_log {
    int v[128];
    unsigned n = 0;
    void add(int x) {
        if (n < 128) v[n++] = x;
    }
    bool equals(std::initializer_list<int> want) const {
        if (want.size() != n) return false;
        unsigned i = 0;
        for (int w : want) {
            if (v[i++] != w) return false;
        }
        return true;
    }
};
inline event_log log;

inline void begin() {
    k::reset();
    next_stack = 0;
    log = event_log{};
    isr_body = nullptr;
}

inline k::pid spawn(unsigned prio, void (*fn)(void*), void* arg = nullptr, const char* nm = "t",
                    unsigned flags = k::create_default) {
    KT_CHECK(next_stack <= k::max_threads);
    if (next_stack > k::max_threads) return -1;
    const k::pid p = k::thread_create(stacks[next_stack++], stack_size, prio, fn, arg, nm, flags);
    KT_CHECK(p > 0);
    return p;
}

// finish() runs the kernel until idle and checks that every thread exited.
inline void finish() {
    k::run_options o;
    o.return_when_idle = true;
    const int left = k::run(o);
    KT_CHECK_EQ(left, 0);
    KT_CHECK_EQ(k::self(), k::no_pid);
}

}  // namespace scenarios::kernel

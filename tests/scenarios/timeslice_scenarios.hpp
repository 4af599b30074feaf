// SPDX-License-Identifier: MIT
// Portable scenarios of round-robin time slicing (KAIROS_TIME_SLICE_US,
// docs/kernel.md "Time slicing"): three busy threads at one priority, each
// counting. With slicing they take turns in round-robin order and their
// counts stay within a bound of each other; without it the first runs
// alone until it yields; either way a higher-priority thread woken by an
// interrupt preempts at once. Same rules as kernel_scenarios.hpp: KT_CHECK
// only, time is virtual (targets: QEMU -icount; hosts: the port's virtual
// clock), so every check is about order and counts, never wall time.
//
// The harness supplies a slice_harness: what one busy iteration does
// besides counting (nothing on a target, whose tick preempts the thread
// anywhere; on a host, advance virtual time, the kernel entry where a
// switch an interrupt requested is taken) and a periodic interrupt of
// 1000 µs that calls the scenario's function (targets: the port's tick
// hook, after which the port's tick runs the slice check; hosts, which have
// no tick: a virtual alarm whose handler also calls KAIROS_SCHED_TICK()),
// or, on a target, no interrupt at all (the slice tick must then start by
// itself: kairos_slice_tick_start()).
#pragma once

#include <kairos/kernel/thread.hpp>
#include <kairos/port.hpp>

#include <cstdint>

#include "services_scenarios.hpp"  // arg(), as_int(); kernel_scenarios.hpp

namespace scenarios::kernel::timeslice {

struct slice_harness {
    void (*work)();                      // one busy iteration's work
    void (*tick_start)(void (*fn)());    // call fn from a 1000 µs periodic interrupt
    void (*tick_stop)();
};

inline constexpr int busy_threads = 3;
inline constexpr unsigned busy_prio = 10;
inline constexpr std::uint64_t run_us = 40000;  // how long the busy threads run (virtual time)

// Shared between the busy threads, the periodic interrupt and the checks.
struct busy_state {
    volatile std::uint32_t count[busy_threads];
    volatile bool stop;
    std::uint64_t end_us;
    // turns: how often the CPU passed from one busy thread to another, and
    // whether every pass went to the next one in creation order.
    volatile int last;
    volatile std::uint32_t turns;
    volatile bool round_robin;
    std::uint32_t at_yield[busy_threads];  // counts when thread 0 yielded
    std::uint32_t at_wake[busy_threads];   // counts when the interrupt woke `high`
    std::uint32_t seen_by_high[busy_threads];
    volatile bool woken;
    volatile bool high_ran;
    k::pid high;
    std::uint64_t wake_at_us;
    bool yield_once;  // thread 0 yields once, half-way (slicing_off_runs_first_until_yield)
};
inline busy_state bs;
inline const slice_harness* harness = nullptr;

inline void copy_counts(std::uint32_t (&to)[busy_threads]) {
    for (int i = 0; i < busy_threads; ++i) to[i] = bs.count[i];
}

// busy(i): count until the run ends; thread 0 may yield once half-way.
// The turn and the count are one masked step, so a preemption cannot fall
// between noticing a turn and recording it; the step re-reads the stop
// flag, so a thread preempted between the loop's test and the step, while
// the others saw the stop and exited, records no turn.
inline void busy(void* a) {
    const int i = as_int(a);
    while (!bs.stop) {
        const kairos::port::irq_state s = kairos::port::irq_disable();
        if (bs.stop) {
            kairos::port::irq_restore(s);
            break;
        }
        if (bs.last != i) {  // the CPU came to this thread from another busy one
            if (bs.last >= 0) {
                ++bs.turns;
                if (i != (bs.last + 1) % busy_threads) bs.round_robin = false;
            }
            bs.last = i;
        }
        ++bs.count[i];
        kairos::port::irq_restore(s);
        if ((bs.count[i] & 63u) == 0 && kairos::port::now_us() >= bs.end_us) bs.stop = true;
        if (i == 0 && bs.yield_once && kairos::port::now_us() >= bs.end_us - run_us / 2) {
            bs.yield_once = false;
            copy_counts(bs.at_yield);
            k::yield();
        }
        harness->work();
    }
}

// start(h, tick) resets the state, creates the three busy threads (and the
// caller adds more) and starts the periodic interrupt running tick.
inline void start(const slice_harness& h, void (*tick)()) {
    begin();
    harness = &h;
    bs = busy_state{};
    bs.last = -1;
    bs.round_robin = true;
    bs.end_us = kairos::port::now_us() + run_us;
    for (int i = 0; i < busy_threads; ++i) spawn(busy_prio, busy, arg(i), "busy");
    h.tick_start(tick);
}

inline void stop_tick() { harness->tick_stop(); }

inline void no_tick_work() {}

inline std::uint32_t min_count() {
    std::uint32_t m = bs.count[0];
    for (int i = 1; i < busy_threads; ++i) m = bs.count[i] < m ? bs.count[i] : m;
    return m;
}
inline std::uint32_t max_count() {
    std::uint32_t m = bs.count[0];
    for (int i = 1; i < busy_threads; ++i) m = bs.count[i] > m ? bs.count[i] : m;
    return m;
}

// With slicing: the three busy threads take turns in creation order (the
// level rotates at each used-up slice), over many turns in the run, and
// their counts end within a bound of each other (at most about one slice
// apart: half the largest count is far above that).
inline void slicing_shares_level(const slice_harness& h) {
    start(h, no_tick_work);
    finish();
    stop_tick();
    KT_CHECK(bs.round_robin);
    KT_CHECK(bs.turns >= 3u * busy_threads);  // 40 ms of slices of at most a few ms
    KT_CHECK(min_count() > 0u);
    KT_CHECK(max_count() - min_count() <= max_count() / 2);
}

// Without slicing: thread 0 runs alone until it yields half-way through
// the run; then thread 1 runs alone to the end (it never yields), and
// thread 2 never runs before the stop.
inline void slicing_off_runs_first_until_yield(const slice_harness& h) {
    start(h, no_tick_work);
    bs.yield_once = true;
    finish();
    stop_tick();
    KT_CHECK(bs.at_yield[0] > 0u);
    KT_CHECK_EQ(bs.at_yield[1], 0u);
    KT_CHECK_EQ(bs.at_yield[2], 0u);
    KT_CHECK_EQ(bs.count[0], bs.at_yield[0]);  // never ran again
    KT_CHECK(bs.count[1] > 0u);
    KT_CHECK_EQ(bs.count[2], 0u);
    KT_CHECK_EQ(bs.turns, 1u);
}

// With or without slicing: a higher-priority thread that the periodic
// interrupt wakes 10 ms into the run preempts the busy thread at once (no
// busy thread counts between the wake-up and its first instruction) and
// stops the run.
inline void higher_priority_preempts(const slice_harness& h) {
    start(h, [] {
        if (bs.woken || kairos::port::now_us() < bs.wake_at_us) return;
        bs.woken = true;
        copy_counts(bs.at_wake);
        (void)k::wakeup(bs.high);
    });
    bs.wake_at_us = bs.end_us - run_us + 10000;
    bs.high = spawn(busy_prio - 4, [](void*) {
        copy_counts(bs.seen_by_high);
        bs.high_ran = true;
        bs.stop = true;
    }, nullptr, "high", k::create_sleeping);
    finish();
    stop_tick();
    KT_CHECK(bs.woken);
    KT_CHECK(bs.high_ran);
    for (int i = 0; i < busy_threads; ++i) KT_CHECK_EQ(bs.seen_by_high[i], bs.at_wake[i]);
    KT_CHECK(bs.at_wake[0] > 0u);
}

}  // namespace scenarios::kernel::timeslice

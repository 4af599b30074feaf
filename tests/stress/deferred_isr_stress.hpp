// SPDX-License-Identifier: MIT
// deferred_isr_stress.hpp: recurrent functions registered and cancelled from
// a signal handler (a kairos interrupt: kairos::host::attach_signal) while
// the main loop runs run_recurrent() and registers, cancels and queries from
// task context. Shared by deferred_isr_stress_test.cpp (compare-and-swap
// path, kairos::rmw_cas) and deferred_isr_nocas_stress_test.cpp
// (kairos::rmw_masked<>: the port's critical section, the virtual mask
// deferring the handler).
//
// Every registration carries an id. Short ones (period 0..3 on a fake clock
// the loop advances by 1 per pass, some with an alarm) return false after
// their first run: each must run exactly once. Long ones (one hour) are
// cancelled by the handler at its next signal: cancel() must return true
// once, then false, and the function must never run. A refused registration
// (pool full) keeps its id for the next signal and must be counted in
// recurrent_overflows(). At the end nothing is registered and the whole pool
// can be used again. No wall time: the loop stops on counts, and after the
// last registration a fixed number of fake-clock passes runs everything due.
#pragma once

#include <gtest/gtest.h>

#include <kairos/config.hpp>
#include <kairos/deferred.hpp>

#include <kairos_host.hpp>

#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <ctime>

namespace isr_stress {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || !defined(NDEBUG)
constexpr std::uint32_t items = 10000;  // Debug and sanitizers
#else
constexpr std::uint32_t items = 50000;
#endif
constexpr std::uint32_t task_items = 1000;  // registrations from the loop itself
constexpr std::uint64_t hour = 3600ull * 1000000ull;

// Pool size, callable size and producer policy (Rec, FnSize, Rmw) chosen
// per test.
template <std::size_t Rec, std::size_t FnSize, class Rmw>
struct state {
    using sched_t = kairos::deferred<4, Rec, FnSize, Rmw>;

    // The fake clock: advanced by the loop, read by the loop and the handler.
    static std::uint64_t read(void*) noexcept {
        return now.load(std::memory_order_relaxed);  // relaxed: a counter, orders nothing
    }
    static inline std::atomic<std::uint64_t> now{0};
    static inline sched_t sched{kairos::clock_source{&read, nullptr}};

    // Consumer side (functions run in run_recurrent on the main thread).
    static inline std::uint8_t ran[items];
    static inline std::uint8_t task_ran[task_items];

    // Handler side: written by the handler, read by the loop on the same
    // thread, so relaxed atomics suffice (no other CPU is involved).
    static inline std::atomic<std::uint32_t> next_id{0};
    static inline std::atomic<std::uint32_t> refused{0};
    static inline std::atomic<std::uint32_t> cancel_ok{0};
    static inline std::atomic<std::uint32_t> cancel_bad{0};
    static inline std::atomic<unsigned> signals{0};
    // Long registrations waiting for their cancel at the next signal.
    static inline std::atomic<unsigned> outstanding{0};
    static inline typename sched_t::handle to_cancel[Rec + 8];  // handler only

    static bool long_id(std::uint32_t id) { return id % 7 == 3; }

    // on_signal() is the interrupt: cancel the previous long registration,
    // then register the next id (a long one waits for its cancel).
    static void on_signal() {
        const unsigned n = outstanding.load(std::memory_order_relaxed);  // relaxed: this thread
        for (unsigned k = 0; k < n; ++k) {
            if (to_cancel[k].cancel()) {
                cancel_ok.fetch_add(1, std::memory_order_relaxed);  // relaxed: this thread
            } else {
                cancel_bad.fetch_add(1, std::memory_order_relaxed);  // relaxed: this thread
            }
            if (to_cancel[k].cancel() || to_cancel[k].active()) {
                cancel_bad.fetch_add(1, std::memory_order_relaxed);  // relaxed: this thread
            }
        }
        outstanding.store(0, std::memory_order_relaxed);  // relaxed: this thread
        // Now and then a burst larger than the pool, so refusals happen.
        const unsigned signal_no = signals.fetch_add(1, std::memory_order_relaxed);  // this thread
        const int burst = signal_no % 64 == 0 ? static_cast<int>(Rec) + 8 : 1;
        for (int k = 0; k < burst && register_next(); ++k) {
        }
    }

    // register_next() registers the next id; false when all are registered
    // or the pool was full (the id is kept for the next try).
    static bool register_next() {
        const std::uint32_t id = next_id.load(std::memory_order_relaxed);  // relaxed: this thread
        if (id == items) return false;
        typename sched_t::handle h;
        if (long_id(id)) {
            h = sched.schedule_recurrent([id] { ++ran[id]; return true; }, hour);
        } else if (id % 5 == 0) {
            h = sched.schedule_recurrent([id] { ++ran[id]; return false; }, id % 3,
                                         [id] { return id % 10 == 0; });
        } else {
            h = sched.schedule_recurrent([id] { ++ran[id]; return false; }, id % 4);
        }
        if (!h) {
            refused.fetch_add(1, std::memory_order_relaxed);  // relaxed: this thread
            return false;  // pool full: the same id again at the next signal
        }
        if (long_id(id)) {
            const unsigned n = outstanding.load(std::memory_order_relaxed);  // relaxed: this thread
            to_cancel[n] = h;  // at most one per id of a burst: n < Rec + 8
            outstanding.store(n + 1, std::memory_order_relaxed);  // relaxed: this thread
        }
        next_id.store(id + 1, std::memory_order_relaxed);  // relaxed: this thread
        return true;
    }

    static void pass() {
        now.fetch_add(1, std::memory_order_relaxed);  // relaxed: see read()
        (void)sched.run_recurrent();
    }

    static void run() {
        ASSERT_TRUE(kairos::host::attach_signal(SIGUSR1, &on_signal));
        // A POSIX timer aimed at this thread interrupts the loop at arbitrary
        // points (the rate only sets the test's duration).
        sigevent ev{};
        ev.sigev_notify = SIGEV_THREAD_ID;
        ev.sigev_signo = SIGUSR1;
        ev._sigev_un._tid = static_cast<pid_t>(syscall(SYS_gettid));
        timer_t timer{};
        ASSERT_EQ(timer_create(CLOCK_MONOTONIC, &ev, &timer), 0);
        itimerspec spec{};
        spec.it_interval.tv_nsec = 40000;  // 40 µs
        spec.it_value.tv_nsec = 10000;
        ASSERT_EQ(timer_settime(timer, 0, &spec, nullptr), 0);

        std::uint32_t task_next = 0, task_refused = 0, task_cancel_bad = 0;
        typename sched_t::handle task_long;
        std::uint64_t passes = 0;
        // relaxed (both loads): written by our own signal handler.
        while (next_id.load(std::memory_order_relaxed) < items ||
               outstanding.load(std::memory_order_relaxed) != 0) {
            pass();
            ++passes;
            if (passes % 16 == 0 && task_next < task_items) {
                // Task context: a short registration, a long one cancelled at
                // once or one pass later, and the queries.
                const std::uint32_t id = task_next;
                if (sched.schedule_recurrent([id] { ++task_ran[id]; return false; }, id % 2)) {
                    ++task_next;
                } else {
                    ++task_refused;
                }
                if (task_long) {
                    if (!task_long.cancel()) ++task_cancel_bad;
                    task_long = {};
                }
                task_long = sched.schedule_recurrent([] { return true; }, hour);
                if (!task_long) {
                    ++task_refused;  // pool full: counted as an overflow
                } else if (passes % 32 == 0) {
                    if (!task_long.cancel()) ++task_cancel_bad;
                    task_long = {};
                }
                (void)sched.recurrent_count();
                (void)sched.recurrent_delay_us();
                (void)sched.delay_us();
            }
        }
        timer_delete(timer);
        if (task_long && !task_long.cancel()) ++task_cancel_bad;
        // A signal still pending from the timer finds next_id == items and
        // nothing outstanding: it does nothing.
        for (int i = 0; i < 8; ++i) pass();  // everything short is due within 4 passes

        std::uint32_t wrong = 0, longs = 0;
        for (std::uint32_t id = 0; id < items; ++id) {
            if (long_id(id)) ++longs;
            if (ran[id] != (long_id(id) ? 0 : 1)) {
                if (wrong++ < 10) ADD_FAILURE() << "id " << id << " ran " << int{ran[id]};
            }
        }
        EXPECT_EQ(wrong, 0u);
        for (std::uint32_t id = 0; id < task_next; ++id) {
            EXPECT_EQ(task_ran[id], 1) << "task id " << id;
        }
        EXPECT_EQ(cancel_ok.load(std::memory_order_relaxed), longs);  // relaxed: this thread
        EXPECT_EQ(cancel_bad.load(std::memory_order_relaxed), 0u);    // relaxed: this thread
        EXPECT_EQ(task_cancel_bad, 0u);
        // relaxed: this thread.
        EXPECT_EQ(sched.recurrent_overflows(), refused.load(std::memory_order_relaxed) + task_refused);
        EXPECT_GT(refused.load(std::memory_order_relaxed), 0u);  // the bursts overfill the pool
        EXPECT_EQ(sched.recurrent_count(), 0u);
        std::printf("  %u signal registrations (%u refused, pool full), %u from the loop, %llu passes\n",
                    items, refused.load(std::memory_order_relaxed), task_next,
                    static_cast<unsigned long long>(passes));

        // The whole pool is free again.
        typename sched_t::handle all[Rec];
        for (auto& h : all) {
            h = sched.schedule_recurrent([] { return false; }, 0);
            EXPECT_TRUE(h.active());
        }
        EXPECT_FALSE(sched.schedule_recurrent([] { return false; }, 0));
        pass();
        EXPECT_EQ(sched.recurrent_count(), 0u);
        // Not detached: a pending SIGUSR1 must never meet the default action.
    }
};

}  // namespace isr_stress

// SPDX-License-Identifier: MIT
// Portable work-queue scenarios (kairos/kernel/work_queue.hpp): work
// scheduled from an interrupt runs in the queue's thread in order, delayed
// and periodic work on kernel time, cancellation (also from an interrupt),
// overflow counting, low, stop and restart. Built on kernel_scenarios.hpp
// (begin/spawn/finish, the event log and the interrupt hook), so the host
// kernel tests and tests/target run the same functions. Time checks are
// lower bounds and orders only: on hosts the port's virtual clock, on
// targets QEMU's instruction-counted time.
#pragma once

#include <kairos/kernel/thread.hpp>
#include <kairos/kernel/timer.hpp>
#include <kairos/kernel/work_queue.hpp>
#include <kairos/port.hpp>

#include <cstdint>

#include "kernel_scenarios.hpp"

namespace scenarios::work_queue {

namespace k = kairos::kernel;
namespace ks = scenarios::kernel;

// The time unit of the timed scenarios: 10 ms, far above the set-up a
// scenario does between two deadlines.
inline constexpr std::uint64_t unit = 10000;

using queue = kairos::work_queue<8, kairos::default_inplace_size, 4>;

// start(q, prio) starts q's thread on the next scenario stack.
template <class Q>
inline k::pid start(Q& q, unsigned prio) {
    KT_CHECK(ks::next_stack <= k::max_threads);
    const int p = q.start(prio, ks::stacks[ks::next_stack++], ks::stack_size, "wq");
    KT_CHECK(p > 0);
    return static_cast<k::pid>(p);
}

// fire raises the scenario's interrupt (the host's or target's trigger_fn).
inline ks::trigger_fn fire = nullptr;

// begin(trigger) starts a scenario (ks::begin()) that raises interrupts
// with trigger.
inline void begin(ks::trigger_fn trigger = nullptr) {
    ks::begin();
    fire = trigger;
}

// in_queue(q) is true when called from q's thread.
template <class Q>
inline bool in_queue(const Q& q) {
    return !kairos::port::in_isr() && k::self() == q.thread() && q.thread() != k::no_pid;
}

// ---- interrupt to thread --------------------------------------------------

// Work an interrupt schedules runs in the queue's thread, in the order it
// was scheduled: at once after the interrupt when the queue's priority is
// above the interrupted thread's, when that thread blocks otherwise.
// Two queues serve every scenario (each leaves them stopped and empty):
// a microbit's 16 KiB of RAM holds the scenario stacks and few queues.
inline queue high, low;
inline void isr_schedule_runs_in_order(ks::trigger_fn trigger) {
    begin(trigger);
    ks::spawn(5, [](void*) {
        start(high, 3);  // runs at once, finds nothing, sleeps
        start(low, 7);
        ks::log.add(1);
        ks::isr_body = [] {
            KT_CHECK(kairos::port::in_isr());
            for (int id = 11; id <= 13; ++id) {
                // Each item logs its id; a capture of one int.
                KT_CHECK(high.schedule([id] {
                    KT_CHECK(in_queue(high));
                    ks::log.add(id);
                }));
            }
        };
        fire();
        k::yield_higher();  // a kernel entry: the switch happens here at the latest (hosts)
        ks::log.add(2);  // the three items ran
        ks::isr_body = [] {
            KT_CHECK(low.schedule([] {
                KT_CHECK(in_queue(low));
                ks::log.add(21);
            }));
            KT_CHECK(low.schedule([] { ks::log.add(22); }));
        };
        fire();
        k::yield_higher();
        ks::log.add(3);  // low is below this thread: nothing ran yet
        ks::isr_body = nullptr;
        KT_CHECK_EQ(high.stop(), 0);  // high exits at once
        KT_CHECK_EQ(high.thread(), k::no_pid);
        KT_CHECK(!high.schedule([] { ks::log.add(99); }));  // refused once stopped
        KT_CHECK(low.schedule([] { KT_CHECK_EQ(low.stop(), 0); }));  // the last item stops low
        ks::log.add(4);
    });
    ks::finish();
    KT_CHECK(ks::log.equals({1, 11, 12, 13, 2, 3, 4, 21, 22}));
    KT_CHECK_EQ(high.overflows(), 0u);
    KT_CHECK_EQ(low.overflows(), 0u);
}

// ---- kernel time ----------------------------------------------------------

// Delayed and periodic work runs on kernel time, in due order, never early;
// immediate work (and schedule_after(0)) runs first.
inline std::uint64_t t0;
inline std::uint64_t at[8];
inline unsigned periodic_runs;
inline void delayed_and_periodic() {
    begin();
    periodic_runs = 0;
    ks::spawn(5, [](void*) {
        start(high, 3);
        t0 = kairos::port::now_us();
        KT_CHECK(high.schedule_every(3 * unit, [] {
            KT_CHECK(in_queue(high));
            at[periodic_runs] = kairos::port::now_us();
            ks::log.add(100 + static_cast<int>(++periodic_runs));
            return periodic_runs < 4;  // false ends it
        }));
        KT_CHECK(high.schedule_after(10 * unit, [] {
            at[7] = kairos::port::now_us();
            ks::log.add(50);
        }));
        KT_CHECK(high.schedule_after(0, [] { ks::log.add(2); }));
        KT_CHECK(high.schedule([] { ks::log.add(1); }));
        ks::log.add(0);
        k::sleep_us(20 * unit);
        ks::log.add(200);
        KT_CHECK_EQ(high.stop(), 0);
    });
    ks::finish();
    // Every call woke the queue, which is above this thread: the zero delay
    // and the immediate item ran before their calls returned, the timed ones
    // later in due order.
    KT_CHECK(ks::log.equals({2, 1, 0, 101, 102, 103, 50, 104, 200}));
    for (unsigned i = 0; i < 4; ++i) KT_CHECK(at[i] - t0 >= (i + 1) * 3 * unit);
    KT_CHECK(at[7] - t0 >= 10 * unit);
    KT_CHECK(at[3] > at[7]);  // the fourth period (12 units) after the delay (10)
}

// Timed work registered from an interrupt while the queue sleeps until a
// later deadline runs at its own time: the registration wakes the queue,
// which sleeps again until the new, earlier deadline.
inline std::uint64_t t_isr, t_ran;
inline void isr_registration_moves_deadline(ks::trigger_fn trigger) {
    begin(trigger);
    ks::spawn(5, [](void*) {
        start(high, 3);
        static queue::handle far;
        far = high.schedule_after(100 * unit, [] { ks::log.add(99); });
        KT_CHECK(far);
        k::sleep_us(unit);  // the queue sleeps until the far deadline
        ks::isr_body = [] {
            t_isr = kairos::port::now_us();
            KT_CHECK(high.schedule_after(2 * unit, [] {
                t_ran = kairos::port::now_us();
                ks::log.add(1);
            }));
        };
        fire();
        ks::isr_body = nullptr;
        k::sleep_us(5 * unit);
        ks::log.add(2);  // the ISR's item ran in between, not at the far deadline
        KT_CHECK(far.cancel());
        KT_CHECK_EQ(high.stop(), 0);
    });
    ks::finish();
    KT_CHECK(ks::log.equals({1, 2}));
    KT_CHECK(t_ran - t_isr >= 2 * unit);
}

// ---- cancellation ---------------------------------------------------------

// cancel() from a thread or an interrupt: a cancelled item never runs; a
// handle whose item ran (or was cancelled) cancels nothing.
inline queue::handle h_after, h_late, h_every;
inline void cancel_from_thread_and_isr(ks::trigger_fn trigger) {
    begin(trigger);
    ks::spawn(5, [](void*) {
        start(high, 3);
        h_every = high.schedule_every(10 * unit, [] { ks::log.add(3); });
        h_after = high.schedule_after(25 * unit, [] { ks::log.add(1); });
        h_late = high.schedule_after(40 * unit, [] { ks::log.add(2); });
        KT_CHECK(h_every && h_after && h_late);
        KT_CHECK(h_late.active());
        ks::isr_body = [] { KT_CHECK(h_late.cancel()); };
        fire();
        ks::isr_body = nullptr;
        KT_CHECK(!h_late.active());
        KT_CHECK(!h_late.cancel());  // already cancelled
        k::sleep_us(26 * unit);  // every at 10 and 20, after at 25
        ks::log.add(9);
        KT_CHECK(!h_after.active());  // it ran
        KT_CHECK(!h_after.cancel());
        KT_CHECK(h_every.active());
        KT_CHECK(h_every.cancel());
        KT_CHECK(!h_every.cancel());
        k::sleep_us(30 * unit);  // past every's 30, 40, 50 and late's 40: nothing runs
        ks::log.add(10);
        KT_CHECK_EQ(high.stop(), 0);
    });
    ks::finish();
    KT_CHECK(ks::log.equals({3, 3, 1, 9, 10}));
}

// ---- limits ---------------------------------------------------------------

// A full ring or a full timed pool refuses work and counts it; what was
// accepted still runs, in order.
inline kairos::work_queue<4, kairos::default_inplace_size, 2> small;
inline void overflow_counted() {
    begin();
    ks::spawn(5, [](void*) {
        start(small, 7);  // below this thread: nothing runs until it sleeps
        for (int i = 1; i <= 4; ++i) KT_CHECK(small.schedule([i] { ks::log.add(i); }));
        KT_CHECK(!small.schedule([] { ks::log.add(99); }));
        KT_CHECK_EQ(small.overflows(), 1u);
        KT_CHECK_EQ(small.pending(), 4u);
        KT_CHECK(small.schedule_after(0, [] { ks::log.add(5); }));
        KT_CHECK(small.schedule_after(0, [] { ks::log.add(6); }));
        KT_CHECK(!small.schedule_after(0, [] { ks::log.add(98); }));
        KT_CHECK(!small.schedule_every(unit, [] { ks::log.add(97); }));
        KT_CHECK_EQ(small.overflows(), 3u);
        k::sleep_us(unit);
        ks::log.add(7);
        KT_CHECK_EQ(small.stop(), 0);
    });
    ks::finish();
    KT_CHECK(ks::log.equals({1, 2, 3, 4, 5, 6, 7}));
}

// Misuse is refused with a documented result: work for a queue not started
// (or stopped), a zero period, a null function, a second start(), a stop()
// of a queue not running, a bad priority; stop() then start() again (once
// the thread has exited) gives a working queue.
inline void misuse_and_restart() {
    begin();
    ks::spawn(5, [](void*) {
        void (*null_fn)() = nullptr;
        KT_CHECK(!low.started());
        KT_CHECK(!low.schedule([] { ks::log.add(99); }));
        KT_CHECK(!low.schedule_after(unit, [] { ks::log.add(99); }));
        KT_CHECK(!low.schedule_every(unit, [] { ks::log.add(99); }));
        KT_CHECK_EQ(low.stop(), queue::err_not_started);
        KT_CHECK_EQ(low.overflows(), 0u);  // refusals are not overflows
        KT_CHECK_EQ(low.start(k::prio_levels - 1, ks::stacks[ks::next_stack], ks::stack_size),
                    k::err_priority);
        KT_CHECK(!low.started());
        KT_CHECK_EQ(low.start(7, nullptr, ks::stack_size), k::err_stack_size);
        const k::pid p = start(low, 7);  // below this thread
        KT_CHECK(low.started());
        KT_CHECK_EQ(low.start(7, ks::stacks[ks::next_stack], ks::stack_size),
                    queue::err_started);
        KT_CHECK(!low.schedule_every(0, [] { ks::log.add(99); }));  // zero period
        KT_CHECK(!low.schedule(null_fn));
        KT_CHECK(!low.schedule_after(0, null_fn));
        KT_CHECK(low.schedule([] { ks::log.add(1); }));
        k::sleep_us(unit);  // the queue runs it
        KT_CHECK_EQ(low.thread(), p);
        KT_CHECK_EQ(low.stop(), 0);
        KT_CHECK_EQ(low.stop(), queue::err_not_started);  // stopping already
        KT_CHECK(!low.schedule([] { ks::log.add(99); }));
        // Its thread has not run since: it still sits on the stack.
        KT_CHECK_EQ(low.start(7, ks::stacks[ks::next_stack - 1], ks::stack_size),
                    queue::err_started);
        k::sleep_us(unit);  // it exits
        KT_CHECK_EQ(k::state(p), k::thread_state::stopped);
        KT_CHECK_EQ(low.thread(), k::no_pid);
        const int again = low.start(7, ks::stacks[ks::next_stack - 1], ks::stack_size);
        KT_CHECK(again > 0);
        KT_CHECK(low.schedule([] {
            ks::log.add(2);
            KT_CHECK_EQ(low.stop(), 0);  // from its own item: exits after this pass
            KT_CHECK(!low.schedule([] { ks::log.add(99); }));
        }));
        KT_CHECK(low.schedule([] { ks::log.add(4); }));  // taken in by the same pass: runs
        ks::log.add(3);
    });
    ks::finish();
    KT_CHECK(ks::log.equals({1, 3, 2, 4}));
}

// ---- timers ---------------------------------------------------------------

using timer = kairos::timer<queue>;
inline std::uint64_t t_base;

// sleep_to(t) sleeps until t µs after t_base: the scenario's wake-ups fall
// between the timers' deadlines, never on one.
inline void sleep_to(std::uint64_t t) {
    const std::uint64_t now = kairos::port::now_us() - t_base;
    if (now < t) k::sleep_us(t - now);
}

// One-shot and periodic timers: restart() from an interrupt moves a
// one-shot's deadline, stop() from an interrupt ends a periodic one, a
// one-shot that fired is inactive, a zero period is refused, and restart()
// re-arms the last kind and interval from now.
inline void timers_once_periodic_restart_stop(ks::trigger_fn trigger) {
    begin(trigger);
    static timer once{high, [] {
        KT_CHECK(in_queue(high));
        ks::log.add(1);
    }};
    static timer every{high, [] { ks::log.add(2); }};
    ks::spawn(5, [](void*) {
        start(high, 3);
        t_base = kairos::port::now_us();
        KT_CHECK(!once.active());
        KT_CHECK(!once.restart());  // never started
        KT_CHECK(once.start_once(7 * unit));
        KT_CHECK(every.start_periodic(3 * unit));
        KT_CHECK(once.active() && every.active());
        sleep_to(unit * 9 / 2);  // every at 3
        ks::isr_body = [] { KT_CHECK(once.restart()); };  // 7 -> 4.5 + 7
        fire();
        sleep_to(unit * 17 / 2);  // every at 6; once not at 7
        ks::log.add(8);
        sleep_to(unit * 21 / 2);  // every at 9
        ks::log.add(10);
        ks::isr_body = [] { KT_CHECK(every.stop()); };
        fire();
        KT_CHECK(!every.active());
        sleep_to(unit * 27 / 2);  // once at 11.5; every not at 12
        ks::log.add(13);
        KT_CHECK(!once.active());  // it fired
        KT_CHECK(!once.stop());
        ks::isr_body = [] {
            KT_CHECK(!once.start_periodic(0));  // zero period: refused, stopped
            KT_CHECK(every.restart());  // periodic again, phase from 13.5
        };
        fire();
        ks::isr_body = nullptr;
        KT_CHECK(!once.active());
        sleep_to(20 * unit);  // every at 16.5 and 19.5
        ks::log.add(20);
        KT_CHECK(every.stop());
        KT_CHECK(!every.stop());
        KT_CHECK_EQ(high.stop(), 0);
    });
    ks::finish();
    KT_CHECK(ks::log.equals({2, 2, 8, 2, 10, 1, 13, 2, 2, 20}));
    KT_CHECK_EQ(high.overflows(), 0u);
}

// The stop guarantee: a timer stopped after its pass of the queue took it
// in (due together with another timer whose callback stops it, here from
// an interrupt) is not called; a periodic timer that stops itself finishes
// the call under way and is not called again. A blocking item holds the
// queue while all three fall due, so one pass takes all three in.
inline void timer_stop_guarantee(ks::trigger_fn trigger) {
    begin(trigger);
    static timer first{high, [] {
        ks::log.add(1);
        fire();  // the interrupt stops `second`, due in this same pass
    }};
    static timer second{high, [] { ks::log.add(99); }};
    static timer self_stop{high, [] {
        ks::log.add(3);
        KT_CHECK(self_stop.stop());  // pending: it is periodic
        ks::log.add(4);  // the call under way completes
    }};
    ks::spawn(5, [](void*) {
        start(high, 3);
        t_base = kairos::port::now_us();
        KT_CHECK(self_stop.start_periodic(unit));
        KT_CHECK(first.start_once(2 * unit));
        KT_CHECK(second.start_once(2 * unit));
        ks::isr_body = [] { KT_CHECK(second.stop()); };
        KT_CHECK(high.schedule([] { k::sleep_us(3 * unit); }));  // runs now: the queue blocks
        sleep_to(6 * unit);
        ks::isr_body = nullptr;
        ks::log.add(9);
        KT_CHECK(!first.active() && !second.active() && !self_stop.active());
        KT_CHECK_EQ(high.stop(), 0);
    });
    ks::finish();
    KT_CHECK(ks::log.equals({3, 4, 1, 9}));
}

}  // namespace scenarios::work_queue

// SPDX-License-Identifier: MIT
// Portable kernel scenarios for misuse and edge cases: a thread on exactly
// stack_min() bytes, the idle thread's fixed priority, stale pids, sends
// that could only deadlock or whose receiver exited, and timeouts too large
// to be a deadline. Same rules as kernel_scenarios.hpp (KT_CHECK only,
// order-based, run on every host port and target).
#pragma once

#include "kernel_scenarios.hpp"

namespace scenarios::kernel {

// A thread on exactly stack_min() bytes yields, sleeps and is woken, blocks
// on a mutex, a message and flags set from an interrupt, runs an interrupt
// handler on its own stack, and waits for a deadline while no other thread
// can run (so without an idle thread the kernel idles on its stack). The
// canary check at each switch halts the program if the stack was too small.
inline void min_stack_thread_works(trigger_fn trigger) {
    begin();
    static k::pid small, helper;
    static k::mutex m;
    static trigger_fn trig;
    static k::flags_t isr_flag;
    trig = trigger;
    isr_body = [] { KT_CHECK_EQ(k::flags_set(small, isr_flag), 0); };
    KT_REQUIRE(k::stack_min() <= stack_size);
    small = k::thread_create(stacks[next_stack++], k::stack_min(), 5, [](void*) {
        log.add(1);
        k::yield();
        k::sleep();  // helper wakes it
        log.add(3);
        m.lock();  // helper holds it
        log.add(5);
        m.unlock();
        k::msg r;
        k::receive(r);
        log.add(static_cast<int>(r.value));
        isr_flag = 2;
        trig();  // the handler runs on this stack
        KT_CHECK_EQ(k::flags_clear(2), 2u);
        isr_flag = 1;
        KT_CHECK_EQ(k::flags_wait_any(1), 1u);  // set by low's interrupt
        log.add(8);
        KT_CHECK_EQ(k::change_priority(k::self(), 8), 0);  // low runs and exits
        k::sleep_us(100);  // nothing else can run meanwhile
        log.add(10);
        KT_CHECK_EQ(k::wakeup(helper), 1);
        KT_CHECK(k::stack_unused(k::self()) > 0);
        log.add(12);
    }, nullptr, "small");
    KT_REQUIRE(small > 0);
    helper = spawn(6, [](void*) {
        log.add(2);
        KT_CHECK_EQ(k::state(small), k::thread_state::sleeping);
        m.lock();
        KT_CHECK_EQ(k::wakeup(small), 1);  // runs now, blocks on m
        log.add(4);
        m.unlock();  // to small, which runs now and then waits for a message
        k::msg out;
        out.value = 6;
        KT_CHECK_EQ(k::send(out, small), 1);
        log.add(7);
        k::sleep();
        log.add(11);
    });
    spawn(7, [](void*) {
        KT_CHECK_EQ(k::state(small), k::thread_state::blocked_flags);
        trig();
        k::yield_higher();  // hosts take the switch the handler asked for here
        log.add(9);
    });
    finish();
    KT_CHECK(log.equals({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));
}

// The idle thread's level is its own: change_priority() refuses it, so no
// one can raise it above the workers (it would stall them) or lower it.
// After reset() the idle thread takes the first free slot: pid 2 here.
inline void change_priority_refuses_idle() {
    begin();
    spawn(5, [](void*) {
        constexpr k::pid idle = 2;
        KT_REQUIRE(k::name(idle) != nullptr);
        KT_CHECK(k::name(idle)[0] == 'i');  // "idle"
        KT_CHECK_EQ(k::change_priority(idle, k::prio_levels - 2), k::err_priority);
        KT_CHECK_EQ(k::change_priority(idle, 0), k::err_priority);
        KT_CHECK_EQ(k::priority(idle), static_cast<int>(k::prio_levels - 1));
        log.add(1);
    });
    k::run_options o;
    o.return_when_idle = true;
    o.idle_thread = true;
    o.idle_stack = stacks[k::max_threads];
    o.idle_stack_size = stack_size;
    KT_CHECK_EQ(k::run(o), 0);
    KT_CHECK(log.equals({1}));
}

// A pid outlives its thread without naming the next one in the same slot:
// every call with the stale pid fails as for a pid never used.
inline void stale_pid_is_refused() {
    begin();
    static k::pid first, second;
    spawn(5, [](void*) {
        first = spawn(4, [](void*) { log.add(1); });  // runs and exits now
        KT_CHECK_EQ(k::state(first), k::thread_state::stopped);
        second = spawn(6, [](void*) {
            KT_CHECK_EQ(k::flags_get(k::self()), 0u);  // nothing meant for first
            log.add(3);
        }, nullptr, "second");
        KT_CHECK(second != first);
        KT_CHECK_EQ(k::flags_set(first, 1), k::err_bad_pid);
        KT_CHECK_EQ(k::wakeup(first), k::err_bad_pid);
        KT_CHECK_EQ(k::change_priority(first, 3), k::err_bad_pid);
        KT_CHECK_EQ(k::state(first), k::thread_state::stopped);
        KT_CHECK_EQ(k::priority(first), -1);
        KT_CHECK(k::name(first) == nullptr);
        k::msg m;
        KT_CHECK_EQ(k::try_send(m, first), k::err_bad_pid);
        KT_CHECK_EQ(k::send(m, first), k::err_bad_pid);
        KT_CHECK_EQ(k::send_receive(m, m, first), k::err_bad_pid);
        KT_CHECK_EQ(k::state(second), k::thread_state::pending);
        KT_CHECK(k::name(second) != nullptr);
        log.add(2);
    });
    finish();
    KT_CHECK(log.equals({1, 2, 3}));
}

// send() to oneself can only be queued: with no queue, or a full one, it
// fails at once instead of waiting for itself.
inline void send_to_self_fails() {
    begin();
    spawn(5, [](void*) {
        k::msg m;
        m.value = 1;
        KT_CHECK_EQ(k::send(m, k::self()), k::err_bad_pid);  // no queue
        log.add(1);
        static k::msg q[1];
        KT_CHECK_EQ(k::msg_init_queue(q, 1), 0);
        KT_CHECK_EQ(k::send(m, k::self()), 1);  // queued
        m.value = 2;
        KT_CHECK_EQ(k::send(m, k::self()), k::err_bad_pid);  // queue full
        k::msg r;
        KT_CHECK(k::try_receive(r));
        KT_CHECK_EQ(r.value, 1u);
        KT_CHECK(!k::try_receive(r));
        log.add(2);
    });
    finish();
    KT_CHECK(log.equals({1, 2}));
}

// Senders blocked on a receiver (send() and send_receive()) get err_bad_pid
// when it exits without taking their messages.
inline void receiver_exit_releases_senders() {
    begin();
    static k::pid receiver, s1, s2;
    receiver = spawn(4, [](void*) {
        k::sleep();  // never receives
        log.add(3);
    }, nullptr, "receiver");
    s1 = spawn(5, [](void*) {
        k::msg m;
        KT_CHECK_EQ(k::send(m, receiver), k::err_bad_pid);
        log.add(4);
    });
    s2 = spawn(6, [](void*) {
        k::msg m;
        KT_CHECK_EQ(k::send_receive(m, m, receiver), k::err_bad_pid);
        log.add(5);
    });
    spawn(7, [](void*) {
        KT_CHECK_EQ(k::state(s1), k::thread_state::blocked_send);
        log.add(1);
        KT_CHECK_EQ(k::state(s2), k::thread_state::blocked_send);
        log.add(2);
        KT_CHECK_EQ(k::wakeup(receiver), 1);  // it exits: the senders go on
        log.add(6);
    });
    finish();
    KT_CHECK(log.equals({1, 2, 3, 4, 5, 6}));
}

// A timeout too large to be a deadline (from 2^62 µs, and UINT64_MAX which
// would wrap) means forever: the sleeper and the mutex waiter stay blocked
// until the holder, having checked that after a scheduling decision, wakes
// the one and unlocks for the other.
inline void huge_timeouts_never_expire() {
    begin();
    static k::pid sleeper, waiter;
    static k::mutex m;
    static constexpr std::uint64_t huge[] = {~std::uint64_t{0}, ~std::uint64_t{0} - 1,
                                             std::uint64_t{1} << 63, std::uint64_t{1} << 62};
    static constexpr unsigned n = sizeof huge / sizeof huge[0];
    sleeper = spawn(5, [](void*) {
        for (const std::uint64_t us : huge) {
            k::sleep_us(us);
            log.add(1);
        }
    });
    waiter = spawn(6, [](void*) {
        for (unsigned i = 0; i < n; ++i) {
            if (i > 0) k::sleep();  // until the holder has m again
            KT_CHECK(m.lock_for(huge[i]));
            m.unlock();
            log.add(2);
        }
    }, nullptr, "waiter", k::create_sleeping);
    spawn(7, [](void*) {
        for (unsigned i = 0; i < n; ++i) {
            m.lock();
            KT_CHECK_EQ(k::wakeup(waiter), 1);  // runs, waits for m
            k::yield();  // a scheduling decision: due deadlines expire
            KT_CHECK_EQ(k::state(sleeper), k::thread_state::sleeping);
            KT_CHECK_EQ(k::state(waiter), k::thread_state::blocked_mutex);
            log.add(0);
            KT_CHECK_EQ(k::wakeup(sleeper), 1);  // runs, sleeps again
            m.unlock();  // to waiter, which runs, unlocks and sleeps
        }
    });
    finish();
    KT_CHECK(log.equals({0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2}));
}

}  // namespace scenarios::kernel

// SPDX-License-Identifier: MIT
// Portable kernel scenarios, threads and priorities: priority order,
// creation, change_priority, yield vs yield_higher, thread flood, bad input,
// run() returning when every thread is blocked. Rules and helpers:
// kernel_scenarios_base.hpp.
#pragma once

#include "kernel_scenarios_base.hpp"

namespace scenarios::kernel {

// Threads run by priority, FIFO within a priority.
inline void priority_order() {
    begin();
    auto body = [](void* a) { log.add(static_cast<int>(reinterpret_cast<std::intptr_t>(a))); };
    spawn(7, body, reinterpret_cast<void*>(70));
    spawn(3, body, reinterpret_cast<void*>(30));
    spawn(7, body, reinterpret_cast<void*>(71));
    spawn(0, body, reinterpret_cast<void*>(0));
    spawn(k::prio_levels - 2, body, reinterpret_cast<void*>(2000));  // lowest a thread may have
    spawn(3, body, reinterpret_cast<void*>(31));
    spawn(k::prio_levels / 2 + 1, body, reinterpret_cast<void*>(1000));  // another bitmap word if > 64
    finish();
    KT_CHECK(log.equals({0, 30, 31, 70, 71, 1000, 2000}));
}

// A new higher-priority thread runs before thread_create() returns, unless
// create_no_yield; create_sleeping waits for wakeup().
inline void create_preempts() {
    begin();
    spawn(10, [](void*) {
        log.add(1);
        spawn(5, [](void*) { log.add(2); });
        log.add(3);
        spawn(5, [](void*) { log.add(5); }, nullptr, "ny", k::create_no_yield);
        log.add(4);
        const k::pid s = spawn(5, [](void*) { log.add(7); }, nullptr, "sl", k::create_sleeping);
        log.add(6);
        KT_CHECK_EQ(k::state(s), k::thread_state::sleeping);
        KT_CHECK_EQ(k::wakeup(s), 1);
        log.add(8);
        KT_CHECK_EQ(k::wakeup(s), k::err_bad_pid);  // exited already
    });
    finish();
    // The no_yield thread waits for the next switch: wakeup() of the
    // sleeping one; FIFO within level 5 puts it first.
    KT_CHECK(log.equals({1, 2, 3, 4, 6, 5, 7, 8}));
}

// change_priority(): raising another thread above the caller switches at
// once; lowering the caller below another does too (RIOT
// sched_change_priority).
inline void change_priority() {
    begin();
    static k::pid other;
    spawn(10, [](void*) {
        other = spawn(12, [](void*) {
            log.add(2);
            KT_CHECK_EQ(k::change_priority(k::self(), 20), 0);  // below main: main resumes
            log.add(4);
        });
        log.add(1);
        KT_CHECK_EQ(k::priority(other), 12);
        KT_CHECK_EQ(k::change_priority(other, 8), 0);  // above main: runs now
        log.add(3);
        KT_CHECK_EQ(k::priority(other), 20);
        KT_CHECK_EQ(k::change_priority(other, k::prio_levels), k::err_priority);
        KT_CHECK_EQ(k::change_priority(999, 3), k::err_bad_pid);
    });
    finish();
    KT_CHECK(log.equals({1, 2, 3, 4}));
}

// yield() rotates the caller's level; yield_higher() does not.
inline void yield_vs_yield_higher() {
    begin();
    auto a = [](void*) {
        log.add(1);
        k::yield_higher();  // B has the same priority: no switch
        log.add(2);
        k::yield();  // B runs
        log.add(4);
        k::yield();
        log.add(6);
    };
    auto b = [](void*) {
        log.add(3);
        k::yield();
        log.add(5);
    };
    spawn(9, a);
    spawn(9, b);
    finish();
    KT_CHECK(log.equals({1, 2, 3, 4, 5, 6}));
}

// yield() runs the best runnable thread, also one above the caller's level
// that create_no_yield left waiting; from a masked section it switches when
// the caller unmasks (on ARMv6-M these are the trap's two fallbacks).
inline void yield_picks_best() {
    begin();
    spawn(9, [](void*) {
        log.add(1);
        spawn(5, [](void*) { log.add(2); }, nullptr, "ny", k::create_no_yield);
        k::yield();  // the new thread first, then B (the front of level 9)
        log.add(3);
        const auto s = kairos::port::irq_disable();
        k::yield();  // B, once unmasked
        log.add(4);
        kairos::port::irq_restore(s);
        log.add(6);
    });
    spawn(9, [](void*) {
        log.add(5);
        k::yield();
        log.add(7);
    });
    finish();
    KT_CHECK(log.equals({1, 2, 5, 3, 4, 7, 6}));
}

// Thread flood (RIOT tests/core/thread_flood): create until the table is
// full, check the error, let them all run and exit, then the slots are
// free again.
inline void thread_flood() {
    begin();
    static unsigned ran;
    ran = 0;
    spawn(1, [](void*) {
        unsigned made = 1;  // this one
        for (;;) {
            if (next_stack > k::max_threads) break;
            const k::pid p = k::thread_create(stacks[next_stack], stack_size, 20,
                                              [](void*) { ++ran; }, nullptr, "flood");
            if (p < 0) {
                KT_CHECK_EQ(p, k::err_no_slot);
                break;
            }
            ++next_stack;
            ++made;
        }
        KT_CHECK_EQ(made, k::max_threads);
        KT_CHECK_EQ(k::live_threads(), k::max_threads);
        log.add(static_cast<int>(made));
    });
    finish();
    KT_CHECK_EQ(ran, k::max_threads - 1);
    KT_CHECK_EQ(k::live_threads(), 0u);
    // All slots reusable.
    next_stack = 0;
    spawn(3, [](void*) { log.add(-1); });
    finish();
    KT_CHECK(log.equals({static_cast<int>(k::max_threads), -1}));
}

// Bad input gets the documented error codes.
inline void bad_input() {
    begin();
    auto nop = [](void*) {};
    KT_CHECK_EQ(k::thread_create(stacks[0], stack_size, k::prio_levels - 1, nop, nullptr, "x"),
                k::err_priority);
    KT_CHECK_EQ(k::thread_create(stacks[0], stack_size, 1000, nop, nullptr, "x"), k::err_priority);
    KT_CHECK_EQ(k::thread_create(nullptr, stack_size, 3, nop, nullptr, "x"), k::err_stack_size);
    KT_CHECK_EQ(k::thread_create(stacks[0] + 4, stack_size - 16, 3, nop, nullptr, "x"),
                k::err_stack_align);
    KT_CHECK_EQ(k::thread_create(stacks[0], k::stack_min() - kairos::port::stack_align, 3, nop,
                                 nullptr, "x"),
                k::err_stack_size);
    KT_CHECK_EQ(k::wakeup(0), k::err_bad_pid);
    KT_CHECK_EQ(k::flags_set(5, 1), k::err_bad_pid);
    KT_CHECK(k::stack_min() >= kairos::port::min_stack_size());
    KT_CHECK_EQ(k::live_threads(), 0u);
}

// run() with return_when_idle comes back when every thread is blocked on
// something no one will provide, and says how many are left.
inline void run_returns_when_all_blocked() {
    begin();
    static k::mutex m;
    spawn(5, [](void*) { (void)k::flags_wait_any(1); });
    spawn(6, [](void*) {
        m.lock();
        m.lock();  // a plain mutex: blocks on itself
    });
    spawn(7, [](void*) { log.add(1); });
    k::run_options o;
    o.return_when_idle = true;
    KT_CHECK_EQ(k::run(o), 2);
    KT_CHECK(log.equals({1}));
    KT_CHECK_EQ(k::live_threads(), 2u);
    k::reset();
    KT_CHECK_EQ(k::live_threads(), 0u);
}

}  // namespace scenarios::kernel

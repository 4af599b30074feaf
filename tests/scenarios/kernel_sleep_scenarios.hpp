// SPDX-License-Identifier: MIT
// Portable kernel scenarios, sleep and wake-ups: sleep()/wakeup(),
// sleep_us() deadlines, an interrupt waking a higher-priority thread, the
// idle thread. Rules and helpers: kernel_scenarios_base.hpp.
#pragma once

#include "kernel_scenarios_base.hpp"

namespace scenarios::kernel {

// sleep()/wakeup() and sleep_us(): wake-ups in deadline order, never early.
inline void sleep_and_wakeup() {
    begin();
    static std::uint64_t t0;
    t0 = kairos::port::now_us();
    auto sleeper = [](void* a) {
        const auto us = static_cast<std::uint64_t>(reinterpret_cast<std::intptr_t>(a));
        k::sleep_us(us);
        KT_CHECK(kairos::port::now_us() - t0 >= us);
        log.add(static_cast<int>(us / 20000));
    };
    // 20 ms steps: the set-up before the last thread runs must not take a
    // whole step even on a loaded VM.
    spawn(5, sleeper, reinterpret_cast<void*>(60000));
    spawn(5, sleeper, reinterpret_cast<void*>(20000));
    spawn(6, sleeper, reinterpret_cast<void*>(40000));
    static k::pid sl;
    sl = spawn(4, [](void*) {
        k::sleep();  // until wakeup()
        log.add(100);
    });
    spawn(20, [](void*) {
        KT_CHECK_EQ(k::state(sl), k::thread_state::sleeping);
        KT_CHECK_EQ(k::wakeup(sl), 1);  // higher: runs before this returns
        log.add(200);
        KT_CHECK_EQ(k::wakeup(k::self()), 0);  // not sleeping
    });
    finish();
    KT_CHECK(log.equals({100, 200, 1, 2, 3}));
}

// An interrupt wakes a higher-priority thread: the handler only requests a
// switch; the woken thread runs before the interrupted thread returns from
// its next kernel entry (MCU: before the interrupted code resumes at all).
// Raised inside a critical section, the handler is deferred to the unmask
// and the switch happens there.
inline void isr_wakes_higher(trigger_fn trigger) {
    begin();
    static k::pid high;
    static trigger_fn trig;
    trig = trigger;
    high = spawn(3, [](void*) {
        for (int i = 0; i < 2; ++i) {
            k::sleep();
            log.add(10 + i);
        }
    });
    spawn(8, [](void*) {
        isr_body = [] {
            KT_CHECK(kairos::port::in_isr());
            KT_CHECK_EQ(k::wakeup(high), 1);
            log.add(1);
        };
        // 1: interrupt with interrupts enabled.
        trig();
        k::yield_higher();  // a kernel entry: the switch happens here at the latest
        log.add(2);
        // 2: interrupt raised while masked: deferred to irq_restore().
        const auto s = kairos::port::irq_disable();
        trig();
        log.add(3);  // handler has not run yet on hosts (virtual mask)
        kairos::port::irq_restore(s);
        log.add(4);
    });
    finish();
    KT_CHECK(log.equals({1, 10, 2, 3, 1, 11, 4}));
}

// Idle thread mode: the hook runs while a thread sleeps; run() returns.
inline void idle_thread_hook() {
    begin();
    static unsigned hooks;
    hooks = 0;
    spawn(5, [](void*) {
        k::sleep_us(2000);
        log.add(1);
    });
    k::run_options o;
    o.return_when_idle = true;
    o.idle_thread = true;
    o.idle_stack = stacks[k::max_threads];
    o.idle_stack_size = stack_size;
    o.idle_hook = [] { ++hooks; };
    KT_CHECK_EQ(k::run(o), 0);
    KT_CHECK(hooks >= 1);
    KT_CHECK(log.equals({1}));
}

}  // namespace scenarios::kernel

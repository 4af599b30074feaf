// SPDX-License-Identifier: MIT
// Portable kernel scenarios (RIOT tests/core ported): priority order,
// change priority, yield vs yield_higher, interrupt wake-ups, mutex order,
// handoff, trylock, priority inheritance, msg, flags, thread flood, sleep,
// idle modes. Checks are KT_CHECK only, so tests/target can run the same
// functions on a microcontroller; the one thing a scenario needs from its
// host is a way to raise an interrupt (trigger_fn), and the port's stacks.
//
// Each scenario resets the kernel, creates its threads, runs the kernel
// until nothing can run (run_options::return_when_idle) and checks the
// order of events it logged.
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

// ---- scheduling -------------------------------------------------------------

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

// ---- interrupts -----------------------------------------------------------

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

// Thread flags set from an interrupt: wait_any, wait_all, wait_one.
inline void flags_from_isr(trigger_fn trigger) {
    begin();
    static k::pid waiter;
    static trigger_fn trig;
    static k::flags_t to_set;
    trig = trigger;
    isr_body = [] { KT_CHECK_EQ(k::flags_set(waiter, to_set), 0); };
    waiter = spawn(4, [](void*) {
        log.add(static_cast<int>(k::flags_wait_any(0x3)));   // 0x2
        log.add(static_cast<int>(k::flags_wait_all(0x30)));  // after 0x10 and 0x20
        log.add(static_cast<int>(k::flags_wait_one(0x700)));  // 0x100 of 0x500
        log.add(static_cast<int>(k::flags_wait_one(0x700)));  // 0x400, no block
        log.add(static_cast<int>(k::flags_clear(0xFFFFFFFFu)));  // 0x8 left over
    });
    spawn(9, [](void*) {
        to_set = 0x2 | 0x8;
        trig();
        k::yield_higher();
        log.add(-1);
        to_set = 0x10;
        trig();
        k::yield_higher();  // not all: waiter stays blocked
        log.add(-2);
        KT_CHECK_EQ(k::state(waiter), k::thread_state::blocked_flags);
        to_set = 0x20;
        trig();
        k::yield_higher();
        log.add(-3);
        to_set = 0x500;
        trig();
        k::yield_higher();
        log.add(-4);
    });
    finish();
    KT_CHECK(log.equals({2, -1, -2, 0x30, -3, 0x100, 0x400, 0x8, -4}));
}

// ---- mutex ----------------------------------------------------------------

// Waiters get the mutex by priority, FIFO among equals; unlock hands it
// over directly (owner() is the waiter at once, nobody can barge in).
inline void mutex_order_and_handoff() {
    begin();
    static k::mutex m;
    static void (*const waiter)(void*) = [](void* a) {
        m.lock();
        log.add(static_cast<int>(reinterpret_cast<std::intptr_t>(a)));
        m.unlock();
    };
    spawn(10, [](void*) {
        m.lock();
        KT_CHECK_EQ(m.owner(), k::self());
        KT_CHECK(!m.try_lock());
        spawn(6, waiter, reinterpret_cast<void*>(60));
        spawn(4, waiter, reinterpret_cast<void*>(40));
        spawn(4, waiter, reinterpret_cast<void*>(41));
        spawn(5, waiter, reinterpret_cast<void*>(50));
        log.add(1);
        m.unlock();  // -> 40, which runs at once and hands on to 41, 50, 60
        log.add(2);
        KT_CHECK_EQ(m.owner(), k::no_pid);
        // Handoff to a lower-priority waiter: it owns the mutex before it
        // runs, so the unlocking thread cannot take it back.
        static k::pid w;
        m.lock();
        w = spawn(12, [](void*) {
            m.lock();
            log.add(120);
            m.unlock();
        });
        k::sleep_us(500);  // w runs and blocks in lock()
        KT_CHECK_EQ(k::state(w), k::thread_state::blocked_mutex);
        m.unlock();
        KT_CHECK_EQ(m.owner(), w);
        KT_CHECK(!m.try_lock());
        log.add(3);
    });
    finish();
    KT_CHECK(log.equals({1, 40, 41, 50, 60, 2, 3, 120}));
}

// try_lock takes a free mutex and fails on a held one.
inline void mutex_trylock() {
    begin();
    static k::mutex m;
    spawn(10, [](void*) {
        KT_CHECK(m.try_lock());
        KT_CHECK(!m.try_lock());
        spawn(5, [](void*) {
            KT_CHECK(!m.try_lock());
            log.add(1);
        });
        m.unlock();
        KT_CHECK(m.try_lock());
        m.unlock();
        KT_CHECK_EQ(m.word(), 0u);
        log.add(2);
    });
    finish();
    KT_CHECK(log.equals({1, 2}));
}

// Priority inversion (RIOT tests/core/thread_priority_inversion): low owns
// the mutex, medium would run forever, high needs the mutex. With
// inheritance high finishes before medium; with a plain mutex after.
inline void priority_inversion(bool inherit) {
    begin();
    static k::mutex plain;
    static k::mutex pi{k::mutex::protocol::inherit};
    static k::mutex* m;
    m = inherit ? &pi : &plain;
    spawn(12, [](void*) {  // low
        m->lock();
        log.add(1);
        spawn(4, [](void*) {  // high
            log.add(2);
            m->lock();
            log.add(5);
            m->unlock();
        });
        spawn(8, [](void*) {  // medium: busy, never blocks
            log.add(3);
            for (int i = 0; i < 3; ++i) k::yield();
            log.add(6);
        });
        log.add(4);
        m->unlock();
    });
    finish();
    if (inherit) {  // low runs at high's priority until it unlocks
        KT_CHECK(log.equals({1, 2, 4, 5, 3, 6}));
    } else {
        KT_CHECK(log.equals({1, 2, 3, 6, 4, 5}));
    }
}

// A sender already blocked in send() that inheritance then boosts moves up
// in its receiver's queue of senders, so the receiver serves it first.
inline void boosted_sender_served_first() {
    begin();
    static k::mutex m{k::mutex::protocol::inherit};
    static k::pid a, b, h, r;
    a = spawn(12, [](void*) {  // runs first: owns m, blocks sending to r
        m.lock();
        k::msg msg;
        k::send(msg, r);
        m.unlock();
    });
    b = spawn(10, [](void*) {  // queued ahead of a: 10 < 12
        k::msg msg;
        k::send(msg, r);
    }, nullptr, "b", k::create_sleeping);
    h = spawn(4, [](void*) {  // waits for m: a inherits 4
        m.lock();
        m.unlock();
    }, nullptr, "h", k::create_sleeping);
    r = spawn(14, [](void*) {
        KT_CHECK_EQ(k::wakeup(b), 1);
        KT_CHECK_EQ(k::wakeup(h), 1);
        KT_CHECK_EQ(k::priority(a), 4);
        for (int i = 0; i < 2; ++i) {
            k::msg msg;
            k::receive(msg);
            log.add(msg.sender == a ? 1 : msg.sender == b ? 2 : 0);
        }
    });
    finish();
    KT_CHECK(log.equals({1, 2}));
}

// A handoff of an inheritance mutex to a waiter whose own boost has gone
// stale (its waiter was lowered by change_priority()): the new owner drops
// to what it still inherits while it becomes runnable.
inline void inherit_handoff_recomputes_new_owner() {
    begin();
    static k::mutex m{k::mutex::protocol::inherit};
    static k::mutex m2{k::mutex::protocol::inherit};
    static k::pid l, w;
    spawn(10, [](void*) {  // x: owns m while l blocks on it
        m.lock();
        KT_CHECK_EQ(k::wakeup(l), 1);
        k::sleep_us(2000);
        m.unlock();  // to l, whose boost by w is stale: at 12 it waits for x
        log.add(3);
    });
    l = spawn(12, [](void*) {
        m2.lock();
        KT_CHECK_EQ(k::wakeup(w), 1);  // w waits for m2: l at 4
        KT_CHECK_EQ(k::priority(l), 4);
        KT_CHECK_EQ(k::change_priority(w, 14), 0);
        m.lock();
        KT_CHECK_EQ(k::priority(l), 12);  // nothing left to inherit above 12
        log.add(1);
        m.unlock();
        m2.unlock();  // to w
        log.add(2);
    }, nullptr, "l", k::create_sleeping);
    w = spawn(4, [](void*) {
        m2.lock();
        m2.unlock();
        log.add(4);
    }, nullptr, "w", k::create_sleeping);
    finish();
    KT_CHECK(log.equals({3, 1, 2, 4}));  // l at 12 no longer preempts x (10)
}

// lock_for() at its deadline: the waiter gives up holding nothing, and the
// priority it lent goes back along the chain of owners (high -> mid, which
// waits for low's mutex -> low).
inline void mutex_lock_for_times_out() {
    begin();
    static k::mutex m1{k::mutex::protocol::inherit};
    static k::mutex m2{k::mutex::protocol::inherit};
    static k::pid low, mid, high;
    low = spawn(12, [](void*) {
        m2.lock();
        KT_CHECK_EQ(k::wakeup(mid), 1);  // mid takes m1, waits for m2: low at 10
        KT_CHECK_EQ(k::priority(low), 10);
        KT_CHECK_EQ(k::wakeup(high), 1);  // high waits for m1: mid and low at 4
        KT_CHECK_EQ(k::priority(mid), 4);
        KT_CHECK_EQ(k::priority(low), 4);
        k::sleep_us(6000);  // high gives up meanwhile
        KT_CHECK_EQ(k::priority(low), 10);
        m2.unlock();  // to mid, which runs first (10 < 12)
        log.add(3);
    });
    mid = spawn(10, [](void*) {
        m1.lock();
        m2.lock();
        log.add(2);
        m2.unlock();
        m1.unlock();
    }, nullptr, "mid", k::create_sleeping);
    high = spawn(4, [](void*) {
        const std::uint64_t t0 = kairos::port::now_us();
        KT_CHECK(!m1.lock_for(2000));
        KT_CHECK(kairos::port::now_us() - t0 >= 2000);
        KT_CHECK_EQ(m1.owner(), mid);
        KT_CHECK_EQ(k::priority(mid), 10);  // lends nothing any more
        KT_CHECK_EQ(k::priority(low), 10);  // still lent by mid, through m2
        log.add(1);
    }, nullptr, "high", k::create_sleeping);
    finish();
    KT_CHECK(log.equals({1, 2, 3}));
}

// lock_for() breaks an inheritance deadlock: t1 holds a and waits for b,
// t2 holds b and waits for a, t3 waits for a too; the priorities lent go
// round the cycle, and when the deadlines expire (t3's, then t1's) t1 backs
// off still holding what t2 lends it through a.
inline void mutex_lock_for_breaks_deadlock() {
    begin();
    static k::mutex a{k::mutex::protocol::inherit};
    static k::mutex b{k::mutex::protocol::inherit};
    static k::pid t1, t2, t3;
    t1 = spawn(10, [](void*) {
        a.lock();
        KT_CHECK_EQ(k::wakeup(t2), 1);  // t2 takes b, waits for a: t1 at 8
        KT_CHECK_EQ(k::wakeup(t3), 1);  // t3 waits up to 2 ms for a: t1 at 3
        KT_CHECK_EQ(k::priority(t1), 3);
        KT_CHECK(!b.lock_for(10000));  // closes the cycle
        KT_CHECK_EQ(k::priority(t1), 8);  // t2 still waits for a
        log.add(2);
        a.unlock();  // to t2, which runs first (8 < 10)
        log.add(4);
    });
    t2 = spawn(8, [](void*) {
        b.lock();
        a.lock();
        log.add(3);
        a.unlock();
        b.unlock();
    }, nullptr, "t2", k::create_sleeping);
    t3 = spawn(3, [](void*) {
        KT_CHECK(!a.lock_for(2000));
        log.add(1);
    }, nullptr, "t3", k::create_sleeping);
    finish();
    KT_CHECK(log.equals({1, 2, 3, 4}));
}

// lock_for() served before its deadline returns true, and the deadline it
// armed does not end a later wait (a plain lock() across it); lock_for(0)
// is try_lock().
inline void mutex_lock_for_served() {
    begin();
    static k::mutex m, m2;
    static k::pid b;
    spawn(10, [](void*) {
        m.lock();
        m2.lock();
        KT_CHECK_EQ(k::wakeup(b), 1);  // b waits up to 5 ms for m
        k::sleep_us(1000);
        m.unlock();  // to b, which runs first (4 < 10) and waits for m2
        log.add(2);
        k::sleep_us(8000);  // past b's old deadline
        m2.unlock();
    });
    b = spawn(4, [](void*) {
        KT_CHECK(!m.lock_for(0));
        KT_CHECK(m.lock_for(5000));
        KT_CHECK_EQ(m.owner(), b);
        log.add(1);
        const std::uint64_t t0 = kairos::port::now_us();
        m2.lock();  // no timeout: must not end at the old deadline
        KT_CHECK_EQ(m2.owner(), b);
        KT_CHECK(kairos::port::now_us() - t0 >= 8000);
        m2.unlock();
        m.unlock();
        log.add(3);
    }, nullptr, "b", k::create_sleeping);
    finish();
    KT_CHECK(log.equals({1, 2, 3}));
}

// Inheritance bookkeeping: a chain of owners, nested mutexes released one
// by one, and a contended handoff followed by a boost of a waiter that must
// reach the new owner (RIOT keeps the old owner there).
inline void inheritance_nested_and_handoff() {
    begin();
    static k::mutex m1{k::mutex::protocol::inherit};
    static k::mutex m2{k::mutex::protocol::inherit};
    static k::pid mid, w1, w2;
    spawn(20, [](void*) {
        m1.lock();
        m2.lock();
        w1 = spawn(6, [](void*) { m1.lock(); log.add(61); m1.unlock(); });
        KT_CHECK_EQ(k::priority(k::self()), 6);
        w2 = spawn(3, [](void*) { m2.lock(); log.add(31); m2.unlock(); });
        KT_CHECK_EQ(k::priority(k::self()), 3);
        m2.unlock();  // w2 runs; low keeps 6 for m1
        KT_CHECK_EQ(k::priority(k::self()), 6);
        m1.unlock();
        KT_CHECK_EQ(k::priority(k::self()), 20);
        log.add(20);
    });
    finish();
    KT_CHECK(log.equals({31, 61, 20}));

    // Chain: low owns m1; mid owns m2 and waits for m1; high waits for m2.
    begin();
    spawn(20, [](void*) {
        m1.lock();
        mid = spawn(15, [](void*) {
            m2.lock();
            m1.lock();  // blocks: low inherits 15
            log.add(15);
            m1.unlock();
            m2.unlock();
        });
        KT_CHECK_EQ(k::priority(k::self()), 15);
        spawn(2, [](void*) {
            m2.lock();  // mid inherits 2, and through m1 low too
            log.add(2);
            m2.unlock();
        });
        KT_CHECK_EQ(k::priority(mid), 2);
        KT_CHECK_EQ(k::priority(k::self()), 2);
        m1.unlock();
        KT_CHECK_EQ(k::priority(k::self()), 20);
        log.add(20);
    });
    finish();
    KT_CHECK(log.equals({15, 2, 20}));

    // Contended handoff: low hands m1 to w1 while w2 still waits; boosting
    // w2 afterwards must raise w1 (the owner now), not low.
    begin();
    spawn(20, [](void*) {
        m1.lock();
        w1 = spawn(9, [](void*) { m1.lock(); log.add(9); m1.unlock(); });
        w2 = spawn(8, [](void*) {
            m1.lock();
            log.add(8);
            k::sleep();  // hold m1 while blocked
            log.add(81);
            m1.unlock();
        });
        KT_CHECK_EQ(k::priority(k::self()), 8);
        m1.unlock();  // -> w2 (first waiter), which sleeps holding it; w1 still waits
        KT_CHECK_EQ(m1.owner(), w2);
        KT_CHECK_EQ(k::priority(k::self()), 20);
        KT_CHECK_EQ(k::change_priority(w1, 1), 0);  // w1 waits for w2's m1
        KT_CHECK_EQ(k::priority(w2), 1);
        KT_CHECK_EQ(k::priority(k::self()), 20);
        KT_CHECK_EQ(k::wakeup(w2), 1);  // runs at 1, hands m1 to w1
        log.add(20);
    });
    finish();
    KT_CHECK(log.equals({8, 81, 9, 20}));
}

// ---- messages -------------------------------------------------------------

// Rendezvous send/receive, send_receive/reply, queue, try_send from an
// interrupt and its drop count.
inline void msg_exchange(trigger_fn trigger) {
    begin();
    static k::pid server, client;
    static trigger_fn trig;
    trig = trigger;
    server = spawn(5, [](void*) {
        k::msg m;
        for (int i = 0; i < 3; ++i) {
            k::receive(m);  // blocks: rendezvous
            KT_CHECK_EQ(m.sender, client);
            log.add(static_cast<int>(m.value));
        }
        k::receive(m);  // a send_receive
        KT_CHECK_EQ(m.type, 7);
        k::msg r;
        r.value = m.value * 2;
        KT_CHECK_EQ(k::reply(m, r), 1);
        KT_CHECK_EQ(k::reply(m, r), k::err_not_waiting);
        log.add(4);
    });
    client = spawn(9, [](void*) {
        for (std::uint32_t i = 1; i <= 3; ++i) {
            k::msg m;
            m.value = i;
            KT_CHECK_EQ(k::send(m, server), 1);
        }
        k::msg q;
        q.type = 7;
        q.value = 21;
        KT_CHECK_EQ(k::send_receive(q, q, server), 1);
        KT_CHECK_EQ(q.value, 42u);
        KT_CHECK_EQ(q.sender, server);
        log.add(5);
        k::msg bad;
        KT_CHECK_EQ(k::send(bad, 999), k::err_bad_pid);
    });
    finish();
    KT_CHECK(log.equals({1, 2, 3, 4, 5}));

    // Queue of 4: senders do not block until it is full, then block until
    // the receiver frees a slot; an interrupt's try_send fails on a full
    // queue and is counted.
    begin();
    static k::msg qbuf[4];
    static int ok_isr;
    server = spawn(12, [](void*) {
        KT_CHECK_EQ(k::msg_init_queue(qbuf, 3), k::err_bad_size);
        KT_CHECK_EQ(k::msg_init_queue(qbuf, 4), 0);
        client = spawn(9, [](void*) {
            isr_body = [] {
                k::msg m;
                m.value = 100;
                ok_isr = k::try_send(m, server);
            };
            for (std::uint32_t i = 1; i <= 4; ++i) {
                k::msg m;
                m.value = i;
                KT_CHECK_EQ(k::send(m, server), 1);  // queued, no block
            }
            trig();  // queue full: dropped
            KT_CHECK_EQ(ok_isr, 0);
            KT_CHECK_EQ(k::msg_dropped(server), 1u);
            log.add(-1);
            k::msg m;
            m.value = 5;
            KT_CHECK_EQ(k::send(m, server), 1);  // full: blocks until a slot frees
            log.add(-2);
            m.value = 6;
            KT_CHECK_EQ(k::send(m, server), 1);
        });
        k::msg m;
        for (int i = 0; i < 6; ++i) {
            k::receive(m);
            log.add(static_cast<int>(m.value));
        }
        KT_CHECK(!k::try_receive(m));
    });
    finish();
    KT_CHECK(log.equals({-1, -2, 1, 2, 3, 4, 5, 6}));
}

// Stress: producers of mixed priorities send numbered messages (blocking
// send into a small queue, interleaved with yields and interrupt try_sends)
// to one consumer; a mutex-protected critical section is entered by every
// thread with yields inside. Checks: no message lost or duplicated, per-
// sender order kept, interrupt drops counted exactly, mutual exclusion.
inline void msg_and_mutex_stress(trigger_fn trigger, unsigned per_producer) {
    begin();
    constexpr unsigned producers = 4;
    static trigger_fn trig;
    static unsigned n_each, next_seq[producers + 1], got[producers + 1], isr_sent, isr_got,
        isr_full, isr_gone;
    static bool inside;
    static unsigned overlaps, sections;
    static k::pid consumer;
    static k::msg qbuf[4];
    static k::mutex m{k::mutex::protocol::inherit};
    static ktest::rng rng(7);
    trig = trigger;
    n_each = per_producer;
    for (auto& v : next_seq) v = 0;
    for (auto& v : got) v = 0;
    isr_sent = isr_got = isr_full = isr_gone = overlaps = sections = 0;
    inside = false;
    rng = ktest::rng(7);
    static void (*const section)() = [] {
        m.lock();
        if (inside) ++overlaps;
        inside = true;
        ++sections;
        k::yield();
        inside = false;
        m.unlock();
    };
    isr_body = [] {
        k::msg im;
        im.type = 0;  // from the interrupt
        im.value = isr_sent;
        const int r = k::try_send(im, consumer);
        if (r == 1) {
            ++isr_sent;
        } else if (r == 0) {
            ++isr_full;  // the consumer's queue was full: counted as dropped
        } else {
            ++isr_gone;  // the consumer already exited
        }
    };
    consumer = spawn(10, [](void*) {
        KT_CHECK_EQ(k::msg_init_queue(qbuf, 4), 0);
        const unsigned total = producers * n_each;
        unsigned from_threads = 0;
        while (from_threads < total) {
            k::msg m1;
            k::receive(m1);
            if (m1.type == 0) {
                KT_CHECK_EQ(m1.value, isr_got);  // interrupt messages in order
                ++isr_got;
                continue;
            }
            const unsigned p = m1.type;
            KT_CHECK(p >= 1 && p <= producers);
            KT_CHECK_EQ(m1.value, got[p]);  // per-sender order, no loss, no dup
            ++got[p];
            ++from_threads;
            if ((rng.next32() & 7) == 0) section();
        }
        k::msg rest;
        while (k::try_receive(rest)) {
            KT_CHECK_EQ(rest.type, 0);
            KT_CHECK_EQ(rest.value, isr_got);
            ++isr_got;
        }
        KT_CHECK_EQ(k::msg_dropped(k::self()), isr_full);  // every refusal counted
    }, nullptr, "consumer");
    for (unsigned i = 1; i <= producers; ++i) {
        spawn(8 + i, [](void* a) {  // 9..12: around the consumer's 10
            const auto id = static_cast<std::uint16_t>(reinterpret_cast<std::intptr_t>(a));
            for (unsigned j = 0; j < n_each; ++j) {
                k::msg pm;
                pm.type = id;
                pm.value = next_seq[id]++;
                KT_CHECK_EQ(k::send(pm, consumer), 1);
                const std::uint32_t r = rng.next32();
                if ((r & 3) == 0) k::yield();
                if ((r & 0x30) == 0) trig();
                if ((r & 0x700) == 0) section();
            }
        }, reinterpret_cast<void*>(static_cast<std::intptr_t>(i)), "producer");
    }
    finish();
    for (unsigned i = 1; i <= producers; ++i) KT_CHECK_EQ(got[i], n_each);
    KT_CHECK_EQ(isr_got, isr_sent);
    KT_CHECK(isr_sent > 0);
    KT_CHECK_EQ(overlaps, 0u);
    KT_CHECK(sections > 0);
    KT_CHECK_EQ(m.owner(), k::no_pid);
}

// ---- limits and errors ----------------------------------------------------

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

// Stack high-water mark: grows with use, never exceeds the stack.
inline void use_4k_of_stack() {
    volatile unsigned char big[4096];
    for (auto& b : big) b = 1;
}
inline void stack_high_water() {
    begin();
    static std::size_t before, after;
    spawn(5, [](void*) {
        before = k::stack_unused(k::self());
        void (*volatile deeper)() = use_4k_of_stack;  // a call, not inlined
        deeper();
        after = k::stack_unused(k::self());
    });
    finish();
    KT_CHECK(before < stack_size);
    KT_CHECK(before > 0);
    KT_CHECK(after + 2048 <= before);  // 4 KiB deeper, minus stack_unused's own frame
}

// stack_overflow_victim() runs a thread that writes over the bottom of its
// own stack (where the canary lives) and yields: the switch must halt with
// "stack overflow in thread 'victim'". For death tests: never returns.
inline void stack_overflow_victim() {
    begin();
    spawn(5, [](void*) {
        // Simulate running out of stack without leaving the array (which
        // ASan would catch first): clobber the lowest bytes.
        volatile unsigned char* lo = stacks[0];
        for (int i = 0; i < 8; ++i) lo[i] = 0;
        k::yield();
        log.add(1);  // not reached
    }, nullptr, "victim");
    finish();
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

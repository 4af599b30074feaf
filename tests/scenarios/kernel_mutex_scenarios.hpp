// SPDX-License-Identifier: MIT
// Portable kernel scenarios, mutexes: waiter order and handoff, try_lock,
// priority inheritance (inversion, boosted senders, handoff, nesting),
// lock_for() deadlines. Rules and helpers: kernel_scenarios_base.hpp.
#pragma once

#include "kernel_scenarios_base.hpp"

namespace scenarios::kernel {

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

}  // namespace scenarios::kernel

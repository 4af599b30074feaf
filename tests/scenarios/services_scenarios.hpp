// SPDX-License-Identifier: MIT
// Portable scenarios of the kernel's synchronisation services: counting
// semaphore, condition variable, typed queue. Priority order of waiters
// (and of a waiter whose priority changes), direct hand-off, deadlines that
// expire, deadlines racing a give or a send, gives and sends from an
// interrupt, broadcast. Same rules as kernel_scenarios.hpp: KT_CHECK only,
// order-based checks (the host runs them on its virtual clock, targets on
// QEMU's virtual time), the same functions on every host port and target.
#pragma once

#include <kairos/kernel/condvar.hpp>
#include <kairos/kernel/semaphore.hpp>

#include "kernel_scenarios.hpp"

namespace scenarios::kernel {

// arg(i) / as_int(a): small integers through a thread's void* argument.
inline void* arg(int i) { return reinterpret_cast<void*>(static_cast<std::intptr_t>(i)); }
inline int as_int(void* a) { return static_cast<int>(reinterpret_cast<std::intptr_t>(a)); }

// ---- semaphore --------------------------------------------------------------

// Counting within [0, max]: try_take() fails at 0, give() fails at max
// and is counted; take_for(0) is try_take().
inline void sem_counts_to_max() {
    begin();
    spawn(5, [](void*) {
        k::semaphore s{2, 3};
        KT_CHECK(s.try_take());
        KT_CHECK(s.take_for(0));
        KT_CHECK(!s.try_take());
        KT_CHECK(!s.take_for(0));
        for (int i = 0; i < 3; ++i) KT_CHECK(s.give());
        KT_CHECK(!s.give());
        KT_CHECK_EQ(s.count(), 3u);
        KT_CHECK_EQ(s.overflows(), 1u);
        s.take();  // a unit is there: no block
        KT_CHECK_EQ(s.count(), 2u);
        log.add(1);
    });
    finish();
    KT_CHECK(log.equals({1}));
}

// Waiters are served by priority, FIFO among equals, and one whose
// priority is raised while it waits moves ahead; each give() hands its unit
// to the first waiter.
inline void sem_priority_order() {
    begin();
    static k::semaphore s;
    static k::pid late;
    static void (*const waiter)(void*) = [](void* a) {
        s.take();
        log.add(as_int(a));
    };
    spawn(10, [](void*) {
        spawn(6, waiter, arg(6));
        spawn(4, waiter, arg(41));
        late = spawn(8, waiter, arg(8));
        spawn(4, waiter, arg(42));
        spawn(9, waiter, arg(9));
        KT_CHECK_EQ(k::state(late), k::thread_state::blocked_wait);
        KT_CHECK_EQ(k::change_priority(late, 5), 0);  // moves between 42 and 6
        for (int i = 0; i < 5; ++i) KT_CHECK(s.give());  // each waiter runs at once
        KT_CHECK_EQ(s.count(), 0u);
        log.add(0);
    });
    finish();
    KT_CHECK(log.equals({41, 42, 8, 6, 9, 0}));
}

// Direct hand-off: a give() to a lower-priority waiter passes the unit to
// it before it runs, so the giver cannot take it back (the count stays 0).
inline void sem_handoff() {
    begin();
    static k::semaphore s;
    spawn(3, [](void*) {
        spawn(8, [](void*) {
            s.take();
            log.add(2);
        });
        k::sleep_us(100);  // the waiter blocks meanwhile
        KT_CHECK(s.give());
        KT_CHECK_EQ(s.count(), 0u);
        KT_CHECK(!s.try_take());  // the unit is the waiter's already
        log.add(1);
    });
    finish();
    KT_CHECK(log.equals({1, 2}));
}

// take_for() at its deadline returns false holding nothing; served before
// it returns true, and the deadline it armed ends no later wait; a huge
// timeout is no deadline.
inline void sem_take_for() {
    begin();
    static k::semaphore s;
    spawn(4, [](void*) {
        const std::uint64_t t0 = kairos::port::now_us();
        KT_CHECK(!s.take_for(2000));
        KT_CHECK(kairos::port::now_us() - t0 >= 2000);
        log.add(1);
        KT_CHECK(s.take_for(5000));  // given after 1 ms
        log.add(3);
        const std::uint64_t t1 = kairos::port::now_us();
        s.take();  // given after 8 ms: past the old deadline
        KT_CHECK(kairos::port::now_us() - t1 >= 8000);
        log.add(5);
        KT_CHECK(s.take_for(~std::uint64_t{0}));  // saturates: forever, given after 3 ms
        log.add(7);
    });
    spawn(10, [](void*) {
        k::sleep_us(3000);  // past the first deadline
        log.add(2);
        k::sleep_us(1000);
        KT_CHECK(s.give());
        log.add(4);
        k::sleep_us(8000);
        KT_CHECK(s.give());
        log.add(6);
        k::sleep_us(3000);
        KT_CHECK(s.give());
        KT_CHECK_EQ(s.count(), 0u);
    });
    finish();
    KT_CHECK(log.equals({1, 2, 3, 4, 5, 6, 7}));
}

// A deadline racing a give(): rounds in which the give comes a little
// before or a little after the waiter's deadline. Either the waiter got
// the unit (count 0) or it timed out and the unit stays in the count; both
// outcomes occur, and no unit is lost or duplicated.
inline void sem_timeout_races_give() {
    begin();
    static k::semaphore s, turn;
    static int served, timed;
    static constexpr int rounds = 21;
    served = timed = 0;
    spawn(4, [](void*) {
        for (int i = 0; i < rounds; ++i) {
            const bool got = s.take_for(1000);
            turn.take();  // until the give of this round happened
            if (got) {
                ++served;
                KT_CHECK_EQ(s.count(), 0u);
            } else {
                ++timed;
                KT_CHECK(s.try_take());  // the unit went into the count
            }
        }
    });
    spawn(6, [](void*) {
        for (int i = 0; i < rounds; ++i) {
            k::sleep_us(500 + 50 * static_cast<unsigned>(i));  // 500 .. 1500 µs
            KT_CHECK(s.give());
            KT_CHECK(turn.give());  // the waiter runs its next round before this returns
        }
    });
    finish();
    KT_CHECK_EQ(served + timed, rounds);
    KT_CHECK(served > 0);
    KT_CHECK(timed > 0);
    KT_CHECK_EQ(s.count(), 0u);
}

// give() from an interrupt wakes a higher-priority waiter, which runs
// before the interrupted thread goes on (masked: at the unmask); with
// nobody waiting the units go into the count up to max, and the interrupt
// takes one back with try_take().
inline void sem_give_from_isr(trigger_fn trigger) {
    begin();
    static k::semaphore s{0, 2};
    static trigger_fn trig;
    static bool isr_take;
    trig = trigger;
    isr_take = false;
    isr_body = [] {
        KT_CHECK(kairos::port::in_isr());
        if (isr_take) {
            log.add(s.try_take() ? 20 : 21);
        } else {
            log.add(s.give() ? 1 : 0);
        }
    };
    spawn(3, [](void*) {
        for (int i = 0; i < 2; ++i) {
            s.take();
            log.add(10 + i);
        }
    });
    spawn(8, [](void*) {
        trig();
        k::yield_higher();  // a kernel entry: the switch happens here at the latest
        log.add(2);
        const auto st = kairos::port::irq_disable();
        trig();
        log.add(3);
        kairos::port::irq_restore(st);
        log.add(4);
        for (int i = 0; i < 3; ++i) trig();  // nobody waits: 1, 1, then full
        KT_CHECK_EQ(s.count(), 2u);
        KT_CHECK_EQ(s.overflows(), 1u);
        isr_take = true;
        trig();
        KT_CHECK_EQ(s.count(), 1u);
    });
    finish();
    KT_CHECK(log.equals({1, 10, 2, 3, 1, 11, 4, 1, 1, 0, 20}));
}

// ---- condition variable ----------------------------------------------------

// signal() wakes one waiter at a time in priority order (FIFO among
// equals, a raised waiter moves ahead); each returns owning the mutex;
// signal() with nobody waiting wakes no one and is not remembered.
inline void cv_signal_priority_order() {
    begin();
    static k::mutex m;
    static k::condvar cv;
    static k::pid late;
    static void (*const waiter)(void*) = [](void* a) {
        m.lock();
        cv.wait(m);
        KT_CHECK_EQ(m.owner(), k::self());
        log.add(as_int(a));
        m.unlock();
    };
    spawn(10, [](void*) {
        KT_CHECK(!cv.signal());  // nobody waits
        spawn(6, waiter, arg(6));
        spawn(4, waiter, arg(41));
        late = spawn(8, waiter, arg(8));
        spawn(4, waiter, arg(42));
        KT_CHECK_EQ(k::state(late), k::thread_state::blocked_wait);
        KT_CHECK_EQ(k::change_priority(late, 5), 0);
        for (int i = 0; i < 4; ++i) KT_CHECK(cv.signal());  // each runs at once: m is free
        KT_CHECK(!cv.signal());
        log.add(0);
    });
    finish();
    KT_CHECK(log.equals({41, 42, 8, 6, 0}));
}

// broadcast() wakes every waiter; while the broadcaster holds the mutex
// they queue on it and get it one by one in priority order when it is
// released. The predicate loop sees the state the broadcaster set.
inline void cv_broadcast() {
    begin();
    static k::mutex m;
    static k::condvar cv;
    static bool ready;
    ready = false;
    static void (*const waiter)(void*) = [](void* a) {
        m.lock();
        while (!ready) cv.wait(m);
        log.add(as_int(a));
        m.unlock();
    };
    spawn(10, [](void*) {
        spawn(7, waiter, arg(7));
        spawn(3, waiter, arg(3));
        spawn(5, waiter, arg(5));
        m.lock();
        KT_CHECK_EQ(cv.broadcast(), 3u);  // ready is still false: each waits again
        m.unlock();
        m.lock();
        ready = true;
        KT_CHECK_EQ(cv.broadcast(), 3u);  // all woken, all queue on m
        log.add(1);
        m.unlock();  // to 3, which runs, then hands m to 5, then 7
        log.add(2);
        KT_CHECK_EQ(cv.broadcast(), 0u);
    });
    finish();
    KT_CHECK(log.equals({1, 3, 5, 7, 2}));
}

// wait_for(): false at the deadline, true when signalled first, and in both
// cases it returns owning the mutex, after the thread that held it then
// released it.
inline void cv_wait_for() {
    begin();
    static k::mutex m;
    static k::condvar cv;
    spawn(4, [](void*) {
        m.lock();
        const std::uint64_t t0 = kairos::port::now_us();
        KT_CHECK(!cv.wait_for(m, 2000));  // the helper holds m at the deadline
        KT_CHECK(kairos::port::now_us() - t0 >= 3000);  // back only once m was released
        KT_CHECK_EQ(m.owner(), k::self());
        log.add(2);
        KT_CHECK(cv.wait_for(m, 5000));  // signalled after 1 ms
        KT_CHECK_EQ(m.owner(), k::self());
        log.add(4);
        KT_CHECK(cv.wait_for(m, ~std::uint64_t{0}));  // forever: signalled after 8 ms
        log.add(6);
        m.unlock();
    });
    spawn(10, [](void*) {
        m.lock();  // free while the waiter waits on cv
        k::sleep_us(3000);  // holds m past the waiter's deadline
        log.add(1);
        m.unlock();  // to the waiter, which runs
        k::sleep_us(1000);
        m.lock();
        KT_CHECK(cv.signal());
        log.add(3);
        m.unlock();
        k::sleep_us(8000);  // past the old deadline: must not end the next wait
        m.lock();
        KT_CHECK(cv.signal());
        log.add(5);
        m.unlock();
    });
    finish();
    KT_CHECK(log.equals({1, 2, 3, 4, 5, 6}));
}

// A signalled waiter re-takes an inheritance mutex like lock(): while it
// waits for it, the owner runs at the waiter's priority.
inline void cv_reacquire_inherits() {
    begin();
    static k::mutex m{k::mutex::protocol::inherit};
    static k::condvar cv;
    static k::pid low, high;
    high = spawn(3, [](void*) {
        m.lock();
        cv.wait(m);
        log.add(2);
        m.unlock();
    });
    low = spawn(12, [](void*) {
        m.lock();
        KT_CHECK(cv.signal());  // high runs, blocks on m: low inherits 3
        KT_CHECK_EQ(k::state(high), k::thread_state::blocked_mutex);
        KT_CHECK_EQ(k::priority(low), 3);
        log.add(1);
        m.unlock();  // to high, which runs at once
        KT_CHECK_EQ(k::priority(low), 12);
        log.add(3);
    });
    finish();
    KT_CHECK(log.equals({1, 2, 3}));
}

// signal() from an interrupt wakes the waiter, which runs before the
// interrupted lower-priority thread goes on; broadcast() from one too.
inline void cv_signal_from_isr(trigger_fn trigger) {
    begin();
    static k::mutex m;
    static k::condvar cv;
    static trigger_fn trig;
    static bool all;
    trig = trigger;
    all = false;
    isr_body = [] {
        KT_CHECK(kairos::port::in_isr());
        log.add(all ? static_cast<int>(cv.broadcast()) * 100 : (cv.signal() ? 1 : 0));
    };
    static void (*const waiter)(void*) = [](void* a) {
        m.lock();
        cv.wait(m);
        log.add(as_int(a));
        m.unlock();
    };
    spawn(8, [](void*) {
        spawn(3, waiter, arg(10));
        trig();
        k::yield_higher();
        log.add(2);
        spawn(4, waiter, arg(11));
        spawn(3, waiter, arg(12));
        all = true;
        trig();
        k::yield_higher();
        log.add(3);
    });
    finish();
    KT_CHECK(log.equals({1, 10, 2, 200, 12, 11, 3}));
}

}  // namespace scenarios::kernel

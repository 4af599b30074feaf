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
#include <kairos/kernel/queue.hpp>
#include <kairos/kernel/semaphore.hpp>

#include "kernel_scenarios.hpp"
#include "ring_scenarios.hpp"  // counted, move_only

namespace scenarios::kernel {

// arg(i) / as_int(a): small integers through a thread's void* argument.
inline void* arg(int i) { return reinterpret_cast<void*>(static_cast<std::intptr_t>(i)); }
inline int as_int(void* a) { return static_cast<int>(reinterpret_cast<std::intptr_t>(a)); }

// raise_five(trig) is the interrupt sequence of the *_from_isr scenarios,
// run by a thread below the waiter: one interrupt with interrupts enabled
// (the woken waiter runs by the next kernel entry, then 2 is logged), one
// raised while masked (3 logged before the unmask, 4 after it, by when the
// waiter ran again), then three more.
inline void raise_five(trigger_fn trig) {
    trig();
    k::yield_higher();  // a kernel entry: the switch happens here at the latest
    log.add(2);
    const auto st = kairos::port::irq_disable();
    trig();
    log.add(3);
    kairos::port::irq_restore(st);
    log.add(4);
    for (int i = 0; i < 3; ++i) trig();
}

// ---- semaphore --------------------------------------------------------------

// Counting within [0, max]: try_take() fails at 0, give() fails at max
// and is counted; take_for(0) is try_take().
inline void sem_counts_to_max() {
    begin();
    spawn(5, [](void*) {
        k::semaphore s{2, 3};
        KT_CHECK_EQ(s.max_count(), 3u);
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
        raise_five(trig);  // the third is the first nobody waits for: 1, 1, then full
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

// ---- queue ------------------------------------------------------------------

// blob: a 32-byte element (the large case of the benchmarks).
struct blob {
    std::uint32_t w[8];
};

// FIFO order, N elements fit, the next try_send fails and is counted, an
// empty queue says so; a 32-byte element is copied whole.
inline void queue_fifo_and_full() {
    begin();
    spawn(5, [](void*) {
        k::queue<std::uint32_t, 3> q;
        KT_CHECK_EQ(q.capacity(), 3u);
        for (std::uint32_t i = 1; i <= 3; ++i) KT_CHECK(q.try_send(i));
        KT_CHECK(!q.try_send(4u));
        KT_CHECK(!q.send_for(4u, 0));
        KT_CHECK_EQ(q.dropped(), 2u);
        KT_CHECK_EQ(q.size(), 3u);
        std::uint32_t v = 0;
        for (std::uint32_t i = 1; i <= 3; ++i) {
            KT_CHECK(q.try_receive(v));
            KT_CHECK_EQ(v, i);
            KT_CHECK(q.try_send(i + 10));  // wraps around the ring
        }
        for (std::uint32_t i = 1; i <= 3; ++i) {
            q.receive(v);  // elements there: no block
            KT_CHECK_EQ(v, i + 10);
        }
        KT_CHECK(!q.try_receive(v));
        KT_CHECK(!q.receive_for(v, 0));
        k::queue<blob, 2> b;
        blob x{};
        for (std::uint32_t i = 0; i < 8; ++i) x.w[i] = 0x01010101u * (i + 1);
        KT_CHECK(b.try_send(x));
        blob y{};
        KT_CHECK(b.try_receive(y));
        unsigned diff = 0;
        for (std::uint32_t i = 0; i < 8; ++i) diff += y.w[i] != x.w[i];
        KT_CHECK_EQ(diff, 0u);
        log.add(1);
    });
    finish();
    KT_CHECK(log.equals({1}));
}

// Move-only and counted elements: moves transfer the resource, every
// element constructed in the queue is destroyed (received, or by the
// queue's destructor).
inline void queue_movable_elements() {
    begin();
    spawn(5, [](void*) {
        {
            k::queue<move_only, 2> q;
            KT_CHECK(q.try_send(move_only{7}));
            move_only m{9};
            KT_CHECK(q.try_send(std::move(m)));
            KT_CHECK_EQ(m.id, 0u);  // moved from
            KT_CHECK(!q.try_send(move_only{5}));
            move_only out{0};
            KT_CHECK(q.try_receive(out));
            KT_CHECK_EQ(out.id, 7u);
        }
        const int before = counted::live();
        {
            k::queue<counted, 4> q;
            for (std::uint32_t i = 0; i < 3; ++i) KT_CHECK(q.try_send(counted{i}));
            KT_CHECK_EQ(counted::live(), before + 3);
            counted c{99};
            KT_CHECK(q.try_receive(c));
            KT_CHECK_EQ(c.v, 0u);
            KT_CHECK_EQ(counted::live(), before + 3);  // c and the two queued
        }
        KT_CHECK_EQ(counted::live(), before);  // the destructor ended the rest
        log.add(1);
    });
    finish();
    KT_CHECK(log.equals({1}));
}

// Receivers waiting on an empty queue are served in priority order (a
// raised one moves ahead), each element handed straight to one: the queue
// stays empty, so the sender cannot take an element back.
inline void queue_receivers_in_priority_order() {
    begin();
    static k::queue<std::uint32_t, 2> q;
    static k::pid late;
    static void (*const receiver)(void*) = [](void* a) {
        std::uint32_t v = 0;
        q.receive(v);
        log.add(as_int(a) * 100 + static_cast<int>(v));
    };
    spawn(10, [](void*) {
        spawn(6, receiver, arg(6));
        spawn(4, receiver, arg(4));
        late = spawn(8, receiver, arg(8));
        KT_CHECK_EQ(k::change_priority(late, 5), 0);
        for (std::uint32_t i = 1; i <= 3; ++i) KT_CHECK(q.send(i));  // each runs at once
        spawn(12, receiver, arg(12));  // lower: runs when this thread sleeps
        k::sleep_us(100);  // the receiver blocks meanwhile
        KT_CHECK(q.send(4u));
        KT_CHECK_EQ(q.size(), 0u);  // handed to the waiter, not queued
        std::uint32_t v = 0;
        KT_CHECK(!q.try_receive(v));
        log.add(1);
    });
    finish();
    KT_CHECK(log.equals({401, 802, 603, 1, 1204}));
}

// Senders waiting on a full queue are served in priority order: each
// receive() refills the freed slot from the first of them (the queue
// stays full while senders wait).
inline void queue_senders_in_priority_order() {
    begin();
    static k::queue<std::uint32_t, 1> q;
    static void (*const sender)(void*) = [](void* a) {
        KT_CHECK(q.send(static_cast<std::uint32_t>(as_int(a))));
        log.add(-as_int(a));
    };
    spawn(10, [](void*) {
        KT_CHECK(q.try_send(1u));
        spawn(6, sender, arg(6));
        spawn(4, sender, arg(4));
        spawn(8, sender, arg(8));
        std::uint32_t v = 0;
        for (int i = 0; i < 4; ++i) {
            q.receive(v);  // the refilled sender runs at once and exits
            log.add(static_cast<int>(v));
            KT_CHECK_EQ(q.size(), i < 3 ? 1u : 0u);
        }
    });
    finish();
    KT_CHECK(log.equals({-4, 1, -6, 4, -8, 6, 8}));
}

// receive_for() and send_for(): false at the deadline (out unchanged, item
// not queued and counted), true when served first, and a served wait's
// deadline ends no later wait; huge timeouts saturate to forever.
inline void queue_timeouts() {
    begin();
    static k::queue<std::uint32_t, 1> q;
    spawn(4, [](void*) {
        std::uint32_t v = 77;
        const std::uint64_t t0 = kairos::port::now_us();
        KT_CHECK(!q.receive_for(v, 2000));
        KT_CHECK(kairos::port::now_us() - t0 >= 2000);
        KT_CHECK_EQ(v, 77u);
        log.add(1);
        KT_CHECK(q.receive_for(v, 5000));  // sent after 2 ms
        KT_CHECK_EQ(v, 5u);
        log.add(3);
        const std::uint64_t t1 = kairos::port::now_us();
        q.receive(v);  // sent after 8 ms: past the old deadline
        KT_CHECK(kairos::port::now_us() - t1 >= 8000);
        KT_CHECK_EQ(v, 6u);
        log.add(5);
        KT_CHECK(q.try_send(1u));  // full now
        const std::uint64_t t2 = kairos::port::now_us();
        KT_CHECK(!q.send_for(2u, 1000));
        KT_CHECK(kairos::port::now_us() - t2 >= 1000);
        KT_CHECK_EQ(q.dropped(), 1u);
        KT_CHECK(q.send_for(3u, ~std::uint64_t{0}));  // forever: a slot frees after 3 ms
        log.add(7);
    });
    spawn(10, [](void*) {
        k::sleep_us(4000);  // past the first deadline
        log.add(2);
        KT_CHECK(q.send(5u));
        log.add(4);
        k::sleep_us(8000);
        KT_CHECK(q.send(6u));
        log.add(6);
        k::sleep_us(3000);  // the waiter is blocked in send_for(3u) meanwhile
        std::uint32_t v = 0;
        KT_CHECK(q.try_receive(v));
        KT_CHECK_EQ(v, 1u);
        KT_CHECK(q.try_receive(v));
        KT_CHECK_EQ(v, 3u);
    });
    finish();
    KT_CHECK(log.equals({1, 2, 3, 4, 5, 6, 7}));
}

// A receive deadline racing a send: rounds in which the send comes a
// little before or after the deadline. Either the receiver got the element
// (the queue is empty) or it timed out and the element is queued; both
// occur, and nothing is lost or duplicated.
inline void queue_timeout_races_send() {
    begin();
    static k::queue<std::uint32_t, 2> q;
    static k::semaphore turn;
    static int served, timed;
    static constexpr int rounds = 21;
    served = timed = 0;
    spawn(4, [](void*) {
        for (std::uint32_t i = 0; i < rounds; ++i) {
            std::uint32_t v = 0;
            const bool got = q.receive_for(v, 1000);
            turn.take();  // until the send of this round happened
            if (got) {
                ++served;
                KT_CHECK_EQ(q.size(), 0u);
            } else {
                ++timed;
                KT_CHECK(q.try_receive(v));  // it was queued
            }
            KT_CHECK_EQ(v, i);
        }
    });
    spawn(6, [](void*) {
        for (std::uint32_t i = 0; i < rounds; ++i) {
            k::sleep_us(500 + 50 * i);  // 500 .. 1500 µs
            KT_CHECK(q.send(i));
            KT_CHECK(turn.give());
        }
    });
    finish();
    KT_CHECK_EQ(served + timed, rounds);
    KT_CHECK(served > 0);
    KT_CHECK(timed > 0);
}

// try_send() from an interrupt hands the element to a waiting
// higher-priority receiver, which runs before the interrupted thread goes
// on (masked: at the unmask); with nobody waiting it queues until full,
// then fails and is counted; try_receive() from an interrupt takes one.
inline void queue_send_from_isr(trigger_fn trigger) {
    begin();
    static k::queue<std::uint32_t, 2> q;
    static trigger_fn trig;
    static std::uint32_t next;
    static bool isr_take;
    trig = trigger;
    next = 1;
    isr_take = false;
    isr_body = [] {
        KT_CHECK(kairos::port::in_isr());
        std::uint32_t v = 0;
        if (isr_take) {
            log.add(q.try_receive(v) ? static_cast<int>(v) + 20 : 0);
        } else {
            log.add(q.try_send(next++) ? 1 : 0);
        }
    };
    spawn(3, [](void*) {
        for (int i = 0; i < 2; ++i) {
            std::uint32_t v = 0;
            q.receive(v);
            log.add(10 + static_cast<int>(v));
        }
    });
    spawn(8, [](void*) {
        raise_five(trig);  // nobody waits from the third: 3, 4 queued, then full
        KT_CHECK_EQ(q.size(), 2u);
        KT_CHECK_EQ(q.dropped(), 1u);
        isr_take = true;
        trig();
        KT_CHECK_EQ(q.size(), 1u);
    });
    finish();
    KT_CHECK(log.equals({1, 11, 2, 3, 1, 12, 4, 1, 1, 0, 23}));
}

}  // namespace scenarios::kernel

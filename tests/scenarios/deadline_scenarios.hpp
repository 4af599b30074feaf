// SPDX-License-Identifier: MIT
// Portable scenarios of the kernel's one deadline mechanism: the _for(us)
// and _until(deadline_us) forms of receive, send, send_receive, the flags
// waits, lock, take, wait and the queue, each expiring, served in time,
// racing a send or a set (both outcomes seen), saturating (huge = forever),
// and met by wakeup() from an interrupt; and the timer queue itself with
// many timers armed in random order. Same rules as kernel_scenarios.hpp:
// KT_CHECK only, order-based checks on virtual time (host: the port's
// virtual clock; targets: QEMU -icount).
#pragma once

#include <kairos/kernel/condvar.hpp>
#include <kairos/kernel/msg.hpp>
#include <kairos/kernel/mutex.hpp>
#include <kairos/kernel/queue.hpp>
#include <kairos/kernel/semaphore.hpp>
#include <kairos/kernel/thread_flags.hpp>
#include <kairos/timer_queue.hpp>

#include "kernel_scenarios.hpp"

namespace scenarios::kernel {

inline std::uint64_t dl_now() { return kairos::port::now_us(); }

// receive_for()/receive_until(): false at the deadline with m unchanged, not
// before it; true when a message comes in time; the deadline a served wait
// armed ends no later wait; 0 and a past deadline only try.
inline void deadline_receive() {
    begin();
    static k::pid rx;
    rx = spawn(4, [](void*) {
        k::msg m;
        m.value = 77;
        KT_CHECK(!k::receive_for(m, 0));
        KT_CHECK(!k::receive_until(m, dl_now()));
        const std::uint64_t t0 = dl_now();
        KT_CHECK(!k::receive_for(m, 2000));
        KT_CHECK(dl_now() - t0 >= 2000);
        KT_CHECK_EQ(m.value, 77u);
        log.add(1);
        KT_CHECK(k::receive_for(m, 5000));  // sent after 2 ms
        KT_CHECK_EQ(m.value, 2u);
        log.add(3);
        const std::uint64_t t1 = dl_now();
        k::receive(m);  // sent after 8 ms: past the served wait's old deadline
        KT_CHECK(dl_now() - t1 >= 8000);
        KT_CHECK_EQ(m.value, 4u);
        const std::uint64_t t2 = dl_now();
        KT_CHECK(!k::receive_until(m, t2 + 1500));
        KT_CHECK(dl_now() - t2 >= 1500);
        log.add(5);
    });
    spawn(10, [](void*) {
        k::sleep_us(3000);  // past the first deadline
        k::msg m;
        m.value = 2;
        log.add(2);
        KT_CHECK_EQ(k::send(m, rx), 1);  // rx runs before this returns
        k::sleep_us(8000);
        m.value = 4;
        log.add(4);
        KT_CHECK_EQ(k::send(m, rx), 1);
    });
    finish();
    KT_CHECK(log.equals({1, 2, 3, 4, 5}));
}

// send_for(): 0 at the deadline with the sender off the receiver's senders
// (the receiver finds nothing afterwards), 1 when taken in time, 0 at once
// for us 0 with nobody waiting; send_receive_for(): 0 when no reply comes
// (taken or not: the late reply() is refused), 1 with a reply in time.
inline void deadline_send() {
    begin();
    static k::pid rx;
    rx = spawn(8, [](void*) {
        k::sleep_us(3000);
        k::msg m;
        KT_CHECK(!k::try_receive(m));  // the timed-out sender left
        log.add(2);
        k::receive(m);  // the second send_for()
        KT_CHECK_EQ(m.value, 20u);
        k::receive(m);  // a send_receive_for() that gets no reply in time
        KT_CHECK_EQ(m.value, 30u);
        k::sleep_us(4000);
        k::msg r;
        KT_CHECK_EQ(k::reply(m, r), k::err_not_waiting);
        log.add(4);
        k::receive(m);  // answered in time
        r.value = 41;
        KT_CHECK_EQ(k::reply(m, r), 1);
        k::sleep_us(6000);  // the next send_receive_for() expires in our senders
        KT_CHECK(!k::try_receive(m));
        log.add(6);
    });
    spawn(4, [](void*) {
        k::msg m;
        m.value = 10;
        KT_CHECK_EQ(k::send_for(m, rx, 0), 0);
        const std::uint64_t t0 = dl_now();
        KT_CHECK_EQ(k::send_for(m, rx, 1000), 0);
        KT_CHECK(dl_now() - t0 >= 1000);
        log.add(1);
        k::sleep_us(3000);  // rx looks for senders meanwhile
        m.value = 20;
        KT_CHECK_EQ(k::send_until(m, rx, dl_now() + 5000), 1);
        k::msg r;
        r.value = 99;
        m.value = 30;
        KT_CHECK_EQ(k::send_receive_for(m, r, rx, 2000), 0);
        KT_CHECK_EQ(r.value, 99u);
        log.add(3);
        m.value = 40;
        KT_CHECK_EQ(k::send_receive_for(m, r, rx, 0), 0);
        KT_CHECK_EQ(k::send_receive_until(m, r, rx, dl_now() + 5000), 1);
        KT_CHECK_EQ(r.value, 41u);
        log.add(5);
        KT_CHECK_EQ(k::send_receive_for(m, r, rx, 2000), 0);  // rx sleeps 6 ms
        KT_CHECK_EQ(k::send_for(m, -3, 100), k::err_bad_pid);
        KT_CHECK_EQ(k::send_receive_for(m, r, k::self(), 100), k::err_bad_pid);
    });
    finish();
    KT_CHECK(log.equals({1, 2, 3, 4, 5, 6}));
}

// The flags waits with a deadline return 0 at it, clearing nothing (a
// partial wait_all leaves the flag that was set), and what the plain wait
// returns when satisfied in time.
inline void deadline_flags() {
    begin();
    static k::pid w, setter;
    w = spawn(4, [](void*) {
        KT_CHECK_EQ(k::flags_wait_any_for(1, 0), 0u);
        const std::uint64_t t0 = dl_now();
        KT_CHECK_EQ(k::flags_wait_any_for(1, 1000), 0u);
        KT_CHECK(dl_now() - t0 >= 1000);
        KT_CHECK_EQ(k::flags_set(k::self(), 2), 0);
        KT_CHECK_EQ(k::flags_wait_all_for(3, 1000), 0u);  // only 2 is set
        KT_CHECK_EQ(k::flags_get(k::self()), 2u);          // nothing cleared
        KT_CHECK_EQ(k::flags_wait_one_until(8, dl_now() + 1000), 0u);
        log.add(1);
        k::msg m;
        KT_CHECK_EQ(k::try_send(m, setter), 1);  // it runs once we wait
        KT_CHECK_EQ(k::flags_wait_all_for(3, 50000), 3u);  // 1 set soon after
        KT_CHECK_EQ(k::flags_wait_one_for(0xC, 5000), 4u);  // lowest of 4|8
        KT_CHECK_EQ(k::flags_wait_any_until(0xC, dl_now() + 10), 8u);  // already set
        log.add(3);
    });
    setter = spawn(10, [](void*) {
        k::msg m;
        k::receive(m);  // from w, once its timed-out waits are done
        log.add(2);
        KT_CHECK_EQ(k::flags_set(w, 1), 0);
        KT_CHECK_EQ(k::flags_set(w, 0xC), 0);
    });
    finish();
    KT_CHECK(log.equals({1, 2, 3}));
}

// A deadline racing a send and a flags set: the other thread acts a little
// before or after the waiter's deadline. Either the waiter got the message
// (or the flag), or it timed out: then the sender finds nobody waiting
// (try_send() fails, there is no queue) and the flag stays set. Both
// outcomes occur, and nothing is lost or duplicated.
inline void deadline_races() {
    begin();
    static k::semaphore turn;
    static k::pid w;
    static int served, timed;
    static constexpr int rounds = 21;
    served = timed = 0;
    w = spawn(4, [](void*) {
        for (int i = 0; i < rounds; ++i) {
            k::msg m;
            const bool got = k::receive_for(m, 1000);
            turn.take();  // until this round's send happened
            if (got) {
                ++served;
                KT_CHECK_EQ(m.value, static_cast<std::uint32_t>(i));
            } else {
                ++timed;
            }
            const k::flags_t f = k::flags_wait_any_for(1, 1000);
            turn.take();
            if (f == 1) {
                ++served;
            } else {
                ++timed;
                KT_CHECK_EQ(k::flags_clear(1), 1u);  // the late set stayed
            }
        }
    });
    spawn(6, [](void*) {
        for (int i = 0; i < rounds; ++i) {
            k::sleep_us(500 + 50 * static_cast<unsigned>(i));  // 500 .. 1500 µs
            k::msg m;
            m.value = static_cast<std::uint32_t>(i);
            const bool waiting = k::state(w) == k::thread_state::blocked_receive;
            KT_CHECK_EQ(k::try_send(m, w), waiting ? 1 : 0);
            KT_CHECK(turn.give());
            k::sleep_us(500 + 50 * static_cast<unsigned>(i));
            KT_CHECK_EQ(k::flags_set(w, 1), 0);
            KT_CHECK(turn.give());
        }
    });
    finish();
    KT_CHECK_EQ(served + timed, 2 * rounds);
    KT_CHECK(served > 0);
    KT_CHECK(timed > 0);
}

// Saturation: timeouts from timeout_forever up, deadline_forever and
// deadlines 2^62 µs or more ahead never expire (a thread that is woken
// 20 ms later by another is still waiting); timeout_until() maps past
// instants to 0. Every object's _until form expires at its deadline.
inline void deadline_saturation() {
    begin();
    static k::pid w;
    static k::mutex mx;
    w = spawn(4, [](void*) {
        const std::uint64_t now = dl_now();
        KT_CHECK_EQ(k::timeout_until(now - 1), 0u);
        KT_CHECK_EQ(k::timeout_until(k::deadline_forever), k::timeout_forever);
        KT_CHECK(k::timeout_until(now + k::timeout_forever + 5) >= k::timeout_forever);
        k::msg m;
        KT_CHECK(k::receive_for(m, ~std::uint64_t{0}));
        KT_CHECK(k::receive_until(m, k::deadline_forever));
        KT_CHECK_EQ(k::flags_wait_any_for(1, k::timeout_forever), 1u);
        KT_CHECK_EQ(k::flags_wait_any_until(1, dl_now() + (std::uint64_t{1} << 62) + 1), 1u);
        log.add(2);
        // The _until forms of the other objects at a near deadline.
        static k::semaphore s;
        static k::condvar cv;
        static k::queue<int, 1> q;
        std::uint64_t t = dl_now();
        KT_CHECK(!s.take_until(t + 300));
        KT_CHECK(dl_now() - t >= 300);
        int x = 0;
        t = dl_now();
        KT_CHECK(!q.receive_until(x, t + 300));
        KT_CHECK(dl_now() - t >= 300);
        KT_CHECK(q.send_until(1, t));  // room: no wait
        KT_CHECK(!q.send_until(2, dl_now() + 300));
        t = dl_now();
        KT_CHECK(!mx.lock_until(t + 300));  // the other thread holds it
        KT_CHECK(dl_now() - t >= 300);
        KT_CHECK(!mx.lock_until(t));  // past: only tries
        mx.lock();
        t = dl_now();
        KT_CHECK(!cv.wait_until(mx, t + 300));
        KT_CHECK(dl_now() - t >= 300);
        mx.unlock();
        log.add(4);
    });
    spawn(10, [](void*) {
        k::msg m;
        for (int i = 0; i < 2; ++i) {
            k::sleep_us(20000);
            KT_CHECK_EQ(k::state(w), k::thread_state::blocked_receive);
            KT_CHECK_EQ(k::send(m, w), 1);
        }
        for (int i = 0; i < 2; ++i) {
            k::sleep_us(20000);
            KT_CHECK_EQ(k::state(w), k::thread_state::blocked_flags);
            KT_CHECK_EQ(k::flags_set(w, 1), 0);
        }
        log.add(1);
        mx.lock();  // w's lock_until() meets an owned mutex
        k::sleep_us(5000);
        log.add(3);
        mx.unlock();
    });
    finish();
    KT_CHECK(log.equals({2, 1, 3, 4}));
}

// wakeup() from an interrupt ends only sleeps: a thread in a wait with a
// deadline is left waiting (wakeup() returns 0) and its wait still ends by
// the object (here flags_set() from the same interrupt, before the
// deadline) or at the deadline.
inline void deadline_wakeup_from_isr(trigger_fn trigger) {
    begin();
    static trigger_fn trig;
    static k::pid w;
    static int step;
    trig = trigger;
    step = 0;
    isr_body = [] {
        KT_CHECK(kairos::port::in_isr());
        if (step == 0) KT_CHECK_EQ(k::wakeup(w), 0);  // in a flags or receive wait
        if (step == 1) KT_CHECK_EQ(k::flags_set(w, 1), 0);
        if (step == 2) KT_CHECK_EQ(k::wakeup(w), 1);  // in sleep_us()
    };
    w = spawn(4, [](void*) {
        const std::uint64_t t0 = dl_now();
        KT_CHECK_EQ(k::flags_wait_any_for(1, 50000), 1u);  // set by the 2nd interrupt
        KT_CHECK(dl_now() - t0 < 50000);
        log.add(2);
        k::msg m;
        const std::uint64_t t1 = dl_now();
        KT_CHECK(!k::receive_for(m, 3000));  // wakeup() does not end it
        KT_CHECK(dl_now() - t1 >= 3000);
        log.add(4);
        const std::uint64_t t2 = dl_now();
        k::sleep_us(50000);  // wakeup() ends it
        KT_CHECK(dl_now() - t2 < 50000);
        log.add(6);
    });
    spawn(8, [](void*) {
        trig();
        KT_CHECK_EQ(k::state(w), k::thread_state::blocked_flags);
        log.add(1);
        step = 1;
        trig();  // w runs before this returns or at the next kernel entry
        k::yield_higher();
        step = 0;
        KT_CHECK_EQ(k::state(w), k::thread_state::blocked_receive);
        trig();
        log.add(3);
        k::sleep_us(5000);  // w times out meanwhile and sleeps
        KT_CHECK_EQ(k::state(w), k::thread_state::sleeping);
        log.add(5);
        step = 2;
        trig();
    });
    finish();
    KT_CHECK(log.equals({1, 2, 3, 4, 5, 6}));
}

// ---- the timer queue --------------------------------------------------------

// Many timers armed in a pseudo-random order, with many equal due times,
// some re-armed and some disarmed: pop_due() returns them in due order,
// ties in arming order, never one that is not due, and each once.
inline void timer_queue_random_order() {
    constexpr unsigned n = 64;  // small enough for the smallest target's RAM
    struct node : kairos::timer_node {
        unsigned seq = 0;  // arming order
    };
    static node nodes[n];
    static kairos::timer_queue<n> q;
    std::uint32_t rng = 12345;
    auto next = [&rng] {
        rng = rng * 1664525u + 1013904223u;
        return rng >> 8;
    };
    for (int round = 0; round < 4; ++round) {
        unsigned seq = 0;
        const std::uint64_t base = round == 3 ? ~std::uint64_t{0} - 20 : 1000u * round;  // round 3 wraps
        for (unsigned i = 0; i < n; ++i) {
            node& t = nodes[next() % n];
            t.seq = seq++;
            KT_CHECK(q.arm(t, base + next() % 12));  // about five per due time
        }
        for (unsigned i = 0; i < n / 8; ++i) q.disarm(nodes[next() % n]);
        unsigned armed = 0;
        for (const node& t : nodes) armed += t.armed() ? 1u : 0u;
        KT_CHECK(!q.empty());
        KT_CHECK(q.pop_due(base - 1) == nullptr);  // nothing is due before base
        std::uint64_t last_due = base;
        unsigned last_seq = 0, popped = 0;
        bool first = true;
        while (kairos::timer_node* p = q.pop_due(base + 12)) {
            const node& t = *static_cast<node*>(p);
            KT_CHECK(!t.armed());
            KT_CHECK(!kairos::time_before(t.due, last_due));
            if (!first && t.due == last_due) KT_CHECK(t.seq > last_seq);
            first = false;
            last_due = t.due;
            last_seq = t.seq;
            ++popped;
        }
        KT_CHECK_EQ(popped, armed);
        KT_CHECK(q.empty());
    }
}

}  // namespace scenarios::kernel

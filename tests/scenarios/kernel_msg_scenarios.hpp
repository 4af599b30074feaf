// SPDX-License-Identifier: MIT
// Portable kernel scenarios, messages: rendezvous, send_receive/reply,
// queue, try_send from an interrupt, and a producers/consumer stress with a
// mutex. Rules and helpers: kernel_scenarios_base.hpp.
#pragma once

#include "kernel_scenarios_base.hpp"

namespace scenarios::kernel {

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

}  // namespace scenarios::kernel

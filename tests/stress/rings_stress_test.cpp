// SPDX-License-Identifier: MIT
// Multi-thread and signal-handler stress of spsc_ring and mpsc_ring.
//
// Every item carries (producer id, sequence number); the consumer checks
// that each producer's sequence arrives complete, without duplicates and in
// order, and that totals match. Item counts: 10^7 per run in optimized
// builds (tsan preset), 10^6 in Debug/ASan so the test stays a few seconds;
// KAIROS_STRESS_ITEMS overrides.
#include <gtest/gtest.h>

#include <kairos/mpsc_ring.hpp>
#include <kairos/spsc_ring.hpp>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <iterator>
#include <pthread.h>
#include <thread>
#include <vector>

#include "backoff.hpp"

namespace {

std::uint64_t items() {
    if (const char* e = std::getenv("KAIROS_STRESS_ITEMS")) return std::strtoull(e, nullptr, 10);
#ifdef NDEBUG
    return 10'000'000;
#else
    return 1'000'000;
#endif
}

constexpr int id_shift = 48;
constexpr std::uint64_t item(std::uint64_t id, std::uint64_t seq) { return id << id_shift | seq; }
constexpr std::uint64_t id_of(std::uint64_t v) { return v >> id_shift; }
constexpr std::uint64_t seq_of(std::uint64_t v) { return v & ((std::uint64_t{1} << id_shift) - 1); }

// backoff spins a little, then yields (tests/support/backoff.hpp).
using backoff = ktest::backoff<64>;

// sequence_check tracks the next expected sequence number per producer.
struct sequence_check {
    std::vector<std::uint64_t> next;
    std::uint64_t errors = 0;
    explicit sequence_check(std::size_t producers) : next(producers, 0) {}
    void see(std::uint64_t v) {
        const std::uint64_t id = id_of(v);
        if (id >= next.size() || seq_of(v) != next[id]) {
            ++errors;  // lost (gap), duplicated (repeat) or reordered
            if (id < next.size()) next[id] = seq_of(v) + 1;
            return;
        }
        ++next[id];
    }
};

// spsc_stream pushes n items through R, mixing single and batch operations
// on both sides, and checks the sequence.
template <class R>
void spsc_stream(std::uint64_t n) {
    static R r;  // static: large rings stay off the thread stack
    std::thread producer([n] {
        backoff wait;
        std::uint64_t buf[16];
        for (std::uint64_t i = 0; i < n;) {
            if (i % 7 == 3 && n - i >= 16) {  // a batch now and then
                for (std::uint64_t k = 0; k < 16; ++k) buf[k] = item(0, i + k);
                const std::size_t put = r.push_n(buf, 16);
                i += put;
                if (put == 0) wait();
            } else if (r.try_push(item(0, i))) {
                ++i;
            } else {
                wait();
            }
        }
    });
    sequence_check check(1);
    backoff wait;
    std::uint64_t buf[16];
    for (std::uint64_t got = 0; got < n;) {
        std::size_t k = 0;
        if (got % 5 == 1) {
            k = r.pop_n(buf, 16);
            for (std::size_t j = 0; j < k; ++j) check.see(buf[j]);
        } else if (got % 5 == 2) {
            if (const std::uint64_t* f = r.front()) {
                check.see(*f);
                r.pop();
                k = 1;
            }
        } else if (r.try_pop(buf[0])) {
            check.see(buf[0]);
            k = 1;
        }
        if (k == 0) wait();
        got += k;
    }
    producer.join();
    EXPECT_EQ(check.errors, 0u);
    EXPECT_EQ(check.next[0], n);
    EXPECT_TRUE(r.empty());
}

TEST(rings_stress, spsc_capacity_1024) { spsc_stream<kairos::spsc_ring<std::uint64_t, 1024>>(items()); }

TEST(rings_stress, spsc_uint8_index_wraps_constantly) {
    spsc_stream<kairos::spsc_ring<std::uint64_t, 64, std::uint8_t>>(items() / 2);
}

TEST(rings_stress, spsc_capacity_1) { spsc_stream<kairos::spsc_ring<std::uint64_t, 1>>(items() / 20); }

// mpsc_stream runs P producers of n / P items each into R.
template <class R>
void mpsc_stream(std::size_t producers, std::uint64_t n) {
    static R r;
    const std::uint64_t per = n / producers;
    std::vector<std::thread> threads;
    for (std::size_t p = 0; p < producers; ++p) {
        threads.emplace_back([p, per] {
            backoff wait;
            std::uint64_t buf[8];
            for (std::uint64_t i = 0; i < per;) {
                if (p == 0 && i % 11 == 5 && per - i >= 8) {  // producer 0 also batches
                    for (std::uint64_t k = 0; k < 8; ++k) buf[k] = item(p, i + k);
                    const std::size_t put = r.push_n(buf, 8);
                    i += put;
                    if (put == 0) wait();
                } else if (r.try_push(item(p, i))) {
                    ++i;
                } else {
                    wait();
                }
            }
        });
    }
    sequence_check check(producers);
    backoff wait;
    std::uint64_t buf[8];
    for (std::uint64_t got = 0; got < per * producers;) {
        std::size_t k = 0;
        if (got % 3 == 1) {
            k = r.pop_n(buf, 8);
            for (std::size_t j = 0; j < k; ++j) check.see(buf[j]);
        } else if (r.try_pop(buf[0])) {
            check.see(buf[0]);
            k = 1;
        }
        if (k == 0) wait();
        got += k;
    }
    for (auto& t : threads) t.join();
    EXPECT_EQ(check.errors, 0u);
    for (std::size_t p = 0; p < producers; ++p) EXPECT_EQ(check.next[p], per) << "producer " << p;
    EXPECT_TRUE(r.empty());
    EXPECT_EQ(r.size(), 0u);
}

TEST(rings_stress, mpsc_two_producers) { mpsc_stream<kairos::mpsc_ring<std::uint64_t, 1024>>(2, items()); }

TEST(rings_stress, mpsc_three_producers_small_ring_across_wrap) {
    // 16 slots and positions starting 2^32 - 1000: the index wraps early.
    struct ring : kairos::mpsc_ring<std::uint64_t, 16> {
        ring() : kairos::mpsc_ring<std::uint64_t, 16>(0xFFFFFFFFu - 1000u) {}
    };
    mpsc_stream<ring>(3, items() / 2);
}

// ---- a SIGALRM handler as producer ----------------------------------------
//
// A POSIX timer (timer_create, SIGALRM) fires every 50 us. The handler, the
// stand-in for an ISR, pushes the next item of its own sequence into an
// spsc_ring (it is that ring's only producer) and into an mpsc_ring that
// two threads push into at the same time. SIGALRM is unblocked only in one
// of those producer threads, so the handler interrupts it mid-push, and two
// handler runs never overlap (an SPSC producer is one context at a time).
// A full ring is counted and retried on the next tick, never dropped.

kairos::spsc_ring<std::uint64_t, 256> sig_spsc;
kairos::mpsc_ring<std::uint64_t, 256> sig_mpsc;
std::atomic<std::uint64_t> sig_spsc_seq{0};  // written by the handler only
std::atomic<std::uint64_t> sig_mpsc_seq{0};  // written by the handler only
std::atomic<std::uint32_t> sig_spsc_full{0};  // full rings seen by the handler
std::atomic<std::uint32_t> sig_mpsc_full{0};
constexpr std::uint64_t sig_id = 2;          // mpsc ids: threads 0, 1; handler 2

void on_alarm(int) {
    // relaxed: these counters are the handler's own state; the rings order
    // the items themselves.
    const std::uint64_t s = sig_spsc_seq.load(std::memory_order_relaxed);
    if (sig_spsc.try_push(item(0, s))) {
        sig_spsc_seq.store(s + 1, std::memory_order_relaxed);
    } else {
        sig_spsc_full.store(sig_spsc_full.load(std::memory_order_relaxed) + 1,
                            std::memory_order_relaxed);
    }
    const std::uint64_t m = sig_mpsc_seq.load(std::memory_order_relaxed);
    if (sig_mpsc.try_push(item(sig_id, m))) {
        sig_mpsc_seq.store(m + 1, std::memory_order_relaxed);
    } else {
        sig_mpsc_full.store(sig_mpsc_full.load(std::memory_order_relaxed) + 1,
                            std::memory_order_relaxed);
    }
}

TEST(rings_stress, signal_handler_pushes_into_spsc_and_mpsc) {
    static_assert(std::atomic<std::uint64_t>::is_always_lock_free);  // signal-safe counters
    const std::uint64_t sig_target = items() >= 10'000'000 ? 20000 : 4000;  // handler pushes
    const std::uint64_t thread_items = items() / 10;

    // Block SIGALRM here; threads inherit the mask; one producer unblocks.
    sigset_t alrm;
    sigemptyset(&alrm);
    sigaddset(&alrm, SIGALRM);
    ASSERT_EQ(pthread_sigmask(SIG_BLOCK, &alrm, nullptr), 0);
    struct sigaction sa = {};
    sa.sa_handler = on_alarm;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    struct sigaction old_sa;
    ASSERT_EQ(sigaction(SIGALRM, &sa, &old_sa), 0);

    std::atomic<bool> stop{false};
    auto producer = [&](std::uint64_t id, bool take_signals) {
        if (take_signals) pthread_sigmask(SIG_UNBLOCK, &alrm, nullptr);
        backoff wait;
        // relaxed: a stop flag; the rings order the items.
        for (std::uint64_t i = 0; i < thread_items && !stop.load(std::memory_order_relaxed);) {
            if (sig_mpsc.try_push(item(id, i))) {
                ++i;
            } else {
                wait();
            }
        }
        // Keep the signal thread alive (and interruptible) until the end.
        while (take_signals && !stop.load(std::memory_order_relaxed)) wait();
    };
    std::thread t0(producer, 0, true), t1(producer, 1, false);

    timer_t timer;
    struct sigevent sev = {};
    sev.sigev_notify = SIGEV_SIGNAL;
    sev.sigev_signo = SIGALRM;
    ASSERT_EQ(timer_create(CLOCK_MONOTONIC, &sev, &timer), 0);
    struct itimerspec its = {};
    its.it_interval.tv_nsec = 50'000;
    its.it_value.tv_nsec = 50'000;
    ASSERT_EQ(timer_settime(timer, 0, &its, nullptr), 0);

    sequence_check spsc_check(1), mpsc_check(3);
    std::uint64_t spsc_got = 0, mpsc_got = 0;
    backoff wait;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (spsc_got < sig_target || mpsc_check.next[0] < thread_items ||
           mpsc_check.next[1] < thread_items || mpsc_check.next[sig_id] < sig_target) {
        ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "signal stream stalled";
        bool any = false;
        std::uint64_t v;
        while (sig_spsc.try_pop(v)) {
            spsc_check.see(v);
            ++spsc_got;
            any = true;
        }
        while (sig_mpsc.try_pop(v)) {
            mpsc_check.see(v);
            ++mpsc_got;
            any = true;
        }
        if (!any) wait();
    }
    its = {};
    ASSERT_EQ(timer_settime(timer, 0, &its, nullptr), 0);  // disarm
    timer_delete(timer);
    stop.store(true, std::memory_order_relaxed);  // relaxed: a flag, see above
    t0.join();
    t1.join();
    sigaction(SIGALRM, &old_sa, nullptr);
    pthread_sigmask(SIG_UNBLOCK, &alrm, nullptr);

    // Drain what the last ticks pushed, then every sequence must be whole.
    std::uint64_t v;
    while (sig_spsc.try_pop(v)) spsc_check.see(v);
    while (sig_mpsc.try_pop(v)) mpsc_check.see(v);
    EXPECT_EQ(spsc_check.errors, 0u);
    EXPECT_EQ(mpsc_check.errors, 0u);
    EXPECT_EQ(spsc_check.next[0], sig_spsc_seq.load());
    EXPECT_EQ(mpsc_check.next[sig_id], sig_mpsc_seq.load());
    EXPECT_EQ(mpsc_check.next[0], thread_items);
    EXPECT_EQ(mpsc_check.next[1], thread_items);
    // Every refusal is counted: the handler is the SPSC ring's only
    // producer; the MPSC count also has the threads' refusals.
    EXPECT_EQ(sig_spsc.failed_pushes(), sig_spsc_full.load());
    EXPECT_GE(sig_mpsc.failed_pushes(), sig_mpsc_full.load());
    RecordProperty("handler_spsc_full", static_cast<int>(sig_spsc_full.load()));
}

}  // namespace

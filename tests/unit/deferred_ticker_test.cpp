// SPDX-License-Identifier: MIT
// kairos::ticker on the host: a kairos interrupt (the port's signal entry)
// whose callback interrupts the thread that armed it. The checks below read
// atomic counters with relaxed order: the handler and the checks run on one
// thread, program order is enough. Timing checks run on the port's virtual
// clock (kairos::host::advance_clock), so they are exact on any machine; the
// last test uses the real POSIX timer and checks order only.
#include <gtest/gtest.h>

#include <kairos/deferred.hpp>
#include <kairos/port.hpp>
#include <kairos/ticker.hpp>

#include <atomic>
#include <cstdint>
#include <semaphore.h>

#include "kairos_host.hpp"

namespace {
class ticker_virtual : public ::testing::Test {
protected:
    void SetUp() override { kairos::host::use_virtual_clock(true); }
    void TearDown() override { kairos::host::use_virtual_clock(false); }
};
using kairos::host::advance_clock;
}  // namespace

TEST_F(ticker_virtual, periodic_fires_at_its_rate_and_detach_stops_it) {
    static std::atomic<int> hits{0};
    kairos::ticker t;
    ASSERT_TRUE(t.attach_us(2000, [] { hits.fetch_add(1, std::memory_order_relaxed); }));
    EXPECT_TRUE(t.active());
    advance_clock(101000);
    t.detach();
    EXPECT_FALSE(t.active());
    EXPECT_EQ(hits.load(std::memory_order_relaxed), 50);  // one call per whole 2 ms period
    EXPECT_EQ(t.overruns(), 0u);
    advance_clock(10000);
    EXPECT_EQ(hits.load(std::memory_order_relaxed), 50);
}

TEST_F(ticker_virtual, once_fires_once) {
    static std::atomic<int> hits{0};
    kairos::ticker t;
    ASSERT_TRUE(t.once_us(1000, [] { hits.fetch_add(1, std::memory_order_relaxed); }));
    advance_clock(999);
    EXPECT_EQ(hits.load(std::memory_order_relaxed), 0);
    EXPECT_TRUE(t.active());
    advance_clock(10000);
    EXPECT_EQ(hits.load(std::memory_order_relaxed), 1);
    EXPECT_FALSE(t.active());
}

TEST_F(ticker_virtual, detach_from_its_own_callback) {
    static std::atomic<int> hits{0};
    static kairos::ticker t;
    ASSERT_TRUE(t.attach_us(1000, [] {
        if (hits.fetch_add(1, std::memory_order_relaxed) + 1 == 3) t.detach();
    }));
    advance_clock(20000);
    EXPECT_EQ(hits.load(std::memory_order_relaxed), 3);
    EXPECT_FALSE(t.active());
}

TEST_F(ticker_virtual, reattach_replaces_the_callback_and_destruction_is_safe) {
    static std::atomic<int> a{0}, b{0};
    for (int round = 0; round < 20; ++round) {
        kairos::ticker t;
        ASSERT_TRUE(t.attach_us(200, [] { a.fetch_add(1, std::memory_order_relaxed); }));
        advance_clock(1000);
        ASSERT_TRUE(t.attach_us(200, [] { b.fetch_add(1, std::memory_order_relaxed); }));
        EXPECT_EQ(a.load(std::memory_order_relaxed), 5 * (round + 1));
        advance_clock(1000);
        EXPECT_EQ(a.load(std::memory_order_relaxed), 5 * (round + 1)) << "old callback after re-attach";
        EXPECT_EQ(b.load(std::memory_order_relaxed), 5 * (round + 1));
    }  // destroyed while armed
    advance_clock(5000);
    EXPECT_EQ(a.load(std::memory_order_relaxed), 100);
    EXPECT_EQ(b.load(std::memory_order_relaxed), 100);
}

// The intended use: the ticker's handler schedules work for the loop.
TEST_F(ticker_virtual, schedules_into_deferred_from_signal_context) {
    static kairos::deferred<64> d;
    static std::atomic<std::uint32_t> produced{0};
    static std::uint32_t ran = 0;
    std::uint32_t consumed = 0;
    kairos::ticker t;
    ASSERT_TRUE(t.attach_us(500, [] {
        const std::uint32_t v = produced.load(std::memory_order_relaxed);
        if (d.schedule([v] { ran += (v == ran) ? 1 : 1000; })) produced.store(v + 1, std::memory_order_relaxed);
    }));
    for (int i = 0; i < 100; ++i) {
        advance_clock(i % 3 == 0 ? 1600 : 300);  // sometimes several ticks per loop turn
        consumed += static_cast<std::uint32_t>(d.run());
    }
    t.detach();
    consumed += static_cast<std::uint32_t>(d.run());
    EXPECT_EQ(consumed, produced.load(std::memory_order_relaxed));
    EXPECT_EQ(ran, consumed);  // each exactly once, in order
    EXPECT_EQ(consumed, (34u * 1600u + 66u * 300u) / 500u);
}

// The wake hook, called by schedule() in signal context, posts a semaphore
// (async-signal-safe) that the loop sleeps on: no polling, no lost wake-up.
TEST(ticker, wake_hook_wakes_a_sleeping_loop) {
    static kairos::deferred<16> d;
    static sem_t sem;
    ASSERT_EQ(sem_init(&sem, 0, 0), 0);
    d.set_wake_hook([](void* s) noexcept { sem_post(static_cast<sem_t*>(s)); }, &sem);
    static std::atomic<int> produced{0};
    int consumed = 0;
    kairos::ticker t;
    ASSERT_TRUE(t.attach_us(1000, [] {
        if (produced.load(std::memory_order_relaxed) < 20 && d.schedule([] {}))
            produced.fetch_add(1, std::memory_order_relaxed);
    }));
    while (consumed < 20) {
        while (sem_wait(&sem) != 0) {  // EINTR: the ticker's signal interrupted the wait
        }
        consumed += static_cast<int>(d.run());
    }
    t.detach();
    d.set_wake_hook(nullptr, nullptr);
    EXPECT_EQ(consumed, 20);
    EXPECT_EQ(produced.load(std::memory_order_relaxed), 20);
    sem_destroy(&sem);
}

// kairos::ticker on the host: timer_create + a real-time signal aimed at the
// arming thread. The callback runs in signal context, interrupting this
// thread, so the checks below read atomic counters with relaxed order: the
// handler and the checks run on one thread, program order is enough.
#include <gtest/gtest.h>

#include <kairos/deferred.hpp>
#include <kairos/port.hpp>
#include <kairos/ticker.hpp>

#include <atomic>
#include <cstdint>
#include <semaphore.h>
#include <time.h>

namespace {
// sleep_us(us) sleeps through signal interruptions (nanosleep restarts with
// the remaining time).
void sleep_us(std::uint64_t us) {
    timespec ts{static_cast<time_t>(us / 1000000u), static_cast<long>(us % 1000000u) * 1000};
    while (nanosleep(&ts, &ts) != 0) {
    }
}
// wait_for(counter, n) sleeps until counter reaches n or 2 s passed (a
// loaded host may delay signals; it must not fail the test).
void wait_for(const std::atomic<int>& counter, int n) {
    for (int i = 0; i < 2000 && counter.load(std::memory_order_relaxed) < n; ++i) sleep_us(1000);
}
}  // namespace

TEST(ticker, periodic_fires_at_its_rate_and_detach_stops_it) {
    static std::atomic<int> hits{0};
    kairos::ticker t;
    const std::uint64_t t0 = kairos::port::now_us();
    ASSERT_TRUE(t.attach_us(2000, [] { hits.fetch_add(1, std::memory_order_relaxed); }));
    EXPECT_TRUE(t.active());
    sleep_us(101000);
    t.detach();
    const std::uint64_t elapsed = kairos::port::now_us() - t0;
    EXPECT_FALSE(t.active());
    const int seen = hits.load(std::memory_order_relaxed);
    // One call per 2 ms period at most; missed ticks only shorten the count
    // (overruns), and the sleep may last longer than asked on a busy host.
    EXPECT_LE(seen, static_cast<int>(elapsed / 2000));
    EXPECT_GE(seen + static_cast<int>(t.overruns()), 25);
    sleep_us(10000);
    EXPECT_EQ(hits.load(std::memory_order_relaxed), seen);
}

TEST(ticker, once_fires_once) {
    static std::atomic<int> hits{0};
    kairos::ticker t;
    ASSERT_TRUE(t.once_us(1000, [] { hits.fetch_add(1, std::memory_order_relaxed); }));
    wait_for(hits, 1);
    sleep_us(10000);
    EXPECT_EQ(hits.load(std::memory_order_relaxed), 1);
    EXPECT_FALSE(t.active());
}

TEST(ticker, detach_from_its_own_callback) {
    static std::atomic<int> hits{0};
    static kairos::ticker t;
    ASSERT_TRUE(t.attach_us(1000, [] {
        if (hits.fetch_add(1, std::memory_order_relaxed) + 1 == 3) t.detach();
    }));
    wait_for(hits, 3);
    sleep_us(10000);
    EXPECT_EQ(hits.load(std::memory_order_relaxed), 3);
    EXPECT_FALSE(t.active());
}

TEST(ticker, reattach_replaces_the_callback_and_destruction_is_safe) {
    static std::atomic<int> a{0}, b{0};
    for (int round = 0; round < 20; ++round) {
        kairos::ticker t;
        ASSERT_TRUE(t.attach_us(200, [] { a.fetch_add(1, std::memory_order_relaxed); }));
        sleep_us(1000);
        ASSERT_TRUE(t.attach_us(200, [] { b.fetch_add(1, std::memory_order_relaxed); }));
        const int a_then = a.load(std::memory_order_relaxed);
        sleep_us(1000);
        EXPECT_EQ(a.load(std::memory_order_relaxed), a_then) << "old callback after re-attach";
    }  // destroyed while armed, with signals possibly pending
    sleep_us(5000);
    EXPECT_GT(a.load(std::memory_order_relaxed), 0);
    EXPECT_GT(b.load(std::memory_order_relaxed), 0);
}

// The intended use: the ticker's signal handler schedules work for the loop.
TEST(ticker, schedules_into_deferred_from_signal_context) {
    static kairos::deferred<64> d;
    static std::atomic<std::uint32_t> produced{0};
    std::uint32_t consumed = 0, next = 0;
    kairos::ticker t;
    ASSERT_TRUE(t.attach_us(500, [] {
        const std::uint32_t v = produced.load(std::memory_order_relaxed);
        if (d.schedule([v] { (void)v; })) produced.store(v + 1, std::memory_order_relaxed);
    }));
    const std::uint64_t end = kairos::port::now_us() + 50000;
    while (kairos::port::now_us() < end) {
        consumed += static_cast<std::uint32_t>(d.run());
        ++next;
    }
    t.detach();
    consumed += static_cast<std::uint32_t>(d.run());
    EXPECT_EQ(consumed, produced.load(std::memory_order_relaxed));
    EXPECT_GT(consumed, 0u);
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

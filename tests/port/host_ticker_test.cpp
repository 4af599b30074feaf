// SPDX-License-Identifier: MIT
// The host ticker inside the port's interrupt model (port/host_common): its
// callback is a kairos interrupt (in_isr(), deferred by the virtual mask,
// allowed to call the kernel's ISR-safe calls), and a signal left pending by
// an earlier arming never reaches a later one. Checks are order-based: they
// wait for events, never for an amount of time.
#include <gtest/gtest.h>

#include <kairos/kernel/thread.hpp>
#include <kairos/port.hpp>
#include <kairos/ticker.hpp>

#include <atomic>
#include <csignal>
#include <ctime>
#include <pthread.h>

#include "kairos_host.hpp"
#include "kernel_scenarios.hpp"

namespace {

namespace port = kairos::port;
namespace k = kairos::kernel;

// nap() lets real time pass while a test waits for a signal.
void nap() {
    timespec ts{0, 100000};
    nanosleep(&ts, nullptr);
}

bool signal_pending_here() {
    sigset_t s;
    sigpending(&s);
    return sigismember(&s, kairos::ticker::signal_number()) == 1;
}

std::atomic<int> runs{0};
std::atomic<bool> saw_isr{false};

TEST(host_ticker, callback_runs_as_an_interrupt) {
    runs.store(0, std::memory_order_relaxed);  // relaxed: same thread as the handler
    saw_isr.store(false, std::memory_order_relaxed);  // relaxed: as above
    kairos::ticker t;
    ASSERT_TRUE(t.once_us(500, [] {
        saw_isr.store(port::in_isr(), std::memory_order_relaxed);  // relaxed: as above
        runs.fetch_add(1, std::memory_order_relaxed);  // relaxed: as above
    }));
    while (runs.load(std::memory_order_relaxed) == 0) nap();  // relaxed: as above
    EXPECT_TRUE(saw_isr.load(std::memory_order_relaxed));  // relaxed: as above
    EXPECT_FALSE(port::in_isr());
}

// The ticker's signal arrives while this thread holds irq_disable(): the
// callback waits for the unmasking irq_restore(). The side channel telling
// that the signal has arrived is the port's deferred bit for it.
TEST(host_ticker, signal_under_the_virtual_mask_is_deferred_to_irq_restore) {
    runs.store(0, std::memory_order_relaxed);  // relaxed: same thread as the handler
    kairos::ticker t;
    const std::uint64_t bit = std::uint64_t{1} << kairos::ticker::signal_number();
    const unsigned long deferred_before = kairos::host::deferred_count();
    const port::irq_state s = port::irq_disable();
    ASSERT_TRUE(t.once_us(500, [] { runs.fetch_add(1, std::memory_order_relaxed); }));  // relaxed: as above
    // relaxed: the handler that sets the bit runs on this thread.
    while ((kairos::host::irq.deferred.load(std::memory_order_relaxed) & bit) == 0 &&
           runs.load(std::memory_order_relaxed) == 0) {  // relaxed: as above
        nap();
    }
    EXPECT_EQ(runs.load(std::memory_order_relaxed), 0) << "callback ran under the mask";  // relaxed: as above
    port::irq_restore(s);
    EXPECT_EQ(runs.load(std::memory_order_relaxed), 1);  // relaxed: as above
    EXPECT_EQ(kairos::host::deferred_count(), deferred_before + 1);
}

// A signal of an earlier arming, still pending when the ticker is re-armed
// with a far deadline, must not run the new arming's callback (nor the old).
TEST(host_ticker, stale_signal_does_not_reach_a_new_arming) {
    static std::atomic<int> old_runs{0}, new_runs{0};
    kairos::ticker t;
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, kairos::ticker::signal_number());
    pthread_sigmask(SIG_BLOCK, &block, &old);
    for (int round = 0; round < 3; ++round) {
        ASSERT_TRUE(t.once_us(200, [] { old_runs.fetch_add(1, std::memory_order_relaxed); }));  // relaxed: same thread
        while (!signal_pending_here()) nap();
        ASSERT_TRUE(t.once_us(60'000'000, [] { new_runs.fetch_add(1, std::memory_order_relaxed); }));  // relaxed: as above
        pthread_sigmask(SIG_SETMASK, &old, nullptr);  // the stale signal is delivered here
        pthread_sigmask(SIG_BLOCK, &block, nullptr);
    }
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    t.detach();
    EXPECT_EQ(old_runs.load(std::memory_order_relaxed), 0);  // relaxed: as above
    EXPECT_EQ(new_runs.load(std::memory_order_relaxed), 0);  // relaxed: as above
}

// Kernel scenario: a ticker callback wakes a higher-priority kernel thread
// (an ISR-safe kernel call), which then wakes the thread that armed it.
namespace ks = scenarios::kernel;
void ticker_wakes_a_thread() {
    ks::begin();
    static k::pid high, low;
    static kairos::ticker t;
    high = ks::spawn(3, [](void*) {
        k::sleep();  // until the ticker's callback
        ks::log.add(2);
        KT_CHECK_EQ(k::wakeup(low), 1);
        ks::log.add(3);
    }, nullptr, "high");
    low = ks::spawn(8, [](void*) {
        ks::log.add(1);
        KT_CHECK(t.once_us(1000, [] {
            KT_CHECK(port::in_isr());
            KT_CHECK_EQ(k::wakeup(high), 1);
        }));
        k::sleep_us(60'000'000);  // ended by high's wakeup(), long before
        ks::log.add(4);
    }, nullptr, "low");
    ks::finish();
    KT_CHECK(ks::log.equals({1, 2, 3, 4}));
}

TEST(host_ticker, callback_wakes_a_kernel_thread) { ticker_wakes_a_thread(); }

}  // namespace

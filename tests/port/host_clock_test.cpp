// SPDX-License-Identifier: MIT
// The host ports' virtual clock (kairos::host::use_virtual_clock): time
// stands still while code runs and jumps when every thread is blocked, so
// kernel timing is the same on a loaded machine as on an idle one.
#include <gtest/gtest.h>

#include <kairos/kernel/thread.hpp>
#include <kairos/port.hpp>
#include <kairos/ticker.hpp>

#include <ctime>

#include "kairos_host.hpp"
#include "kernel_scenarios.hpp"

namespace {

namespace port = kairos::port;
namespace k = kairos::kernel;
namespace ks = scenarios::kernel;

class host_clock : public ::testing::Test {
protected:
    void SetUp() override { kairos::host::use_virtual_clock(true); }
    void TearDown() override { kairos::host::use_virtual_clock(false); }
};

// stall_os_thread() stands for the machine taking the CPU away: the OS
// thread that runs the kernel stops for longer than any sleep below.
void stall_os_thread() {
    timespec ts{0, 50'000'000};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

// A 20 ms sleeper must not wake while a lower thread is still running, however
// long that thread's OS thread was stalled: its deadline passes only once
// nothing can run.
TEST_F(host_clock, sleep_deadline_passes_only_when_all_are_blocked) {
    ks::begin();
    ks::spawn(4, [](void*) {
        k::sleep_us(20000);
        ks::log.add(2);
    });
    ks::spawn(8, [](void*) {
        stall_os_thread();
        k::yield();  // a kernel entry: a due sleeper would preempt here
        ks::log.add(1);
    });
    ks::finish();
    KT_CHECK(ks::log.equals({1, 2}));
}

// idle() jumps to its deadline exactly; a pending signal ends it first.
TEST_F(host_clock, idle_jumps_to_the_deadline) {
    const port::irq_state s = port::irq_disable();
    const std::uint64_t t0 = port::now_us();
    EXPECT_EQ(port::now_us(), t0);  // stands still while code runs
    port::idle(t0 + 2000);
    EXPECT_EQ(port::now_us(), t0 + 2000);
    port::irq_restore(s);
}

// Sleepers wake at their exact virtual deadlines.
TEST_F(host_clock, sleepers_wake_at_exact_times) {
    ks::begin();
    static std::uint64_t t0;
    t0 = port::now_us();
    auto sleeper = [](void* a) {
        const auto us = static_cast<std::uint64_t>(reinterpret_cast<std::intptr_t>(a));
        k::sleep_us(us);
        KT_CHECK_EQ(port::now_us() - t0, us);
        ks::log.add(static_cast<int>(us));
    };
    ks::spawn(5, sleeper, reinterpret_cast<void*>(300));
    ks::spawn(6, sleeper, reinterpret_cast<void*>(100));
    ks::spawn(5, sleeper, reinterpret_cast<void*>(200));
    ks::finish();
    KT_CHECK(ks::log.equals({100, 200, 300}));
}

// A periodic ticker on virtual time: exact call count, without a kernel.
TEST_F(host_clock, ticker_fires_on_virtual_time) {
    static int hits;
    hits = 0;
    kairos::ticker t;
    ASSERT_TRUE(t.attach_us(2000, [] { ++hits; }));
    kairos::host::advance_clock(1999);
    EXPECT_EQ(hits, 0);
    kairos::host::advance_clock(1);
    EXPECT_EQ(hits, 1);
    kairos::host::advance_clock(99000);
    EXPECT_EQ(hits, 50);
    EXPECT_EQ(t.overruns(), 0u);
    // Under the mask the due calls wait for irq_restore and coalesce.
    const port::irq_state s = port::irq_disable();
    kairos::host::advance_clock(6000);
    EXPECT_EQ(hits, 50);
    port::irq_restore(s);
    EXPECT_EQ(hits, 51);
    EXPECT_EQ(t.overruns(), 2u);
    t.detach();
    kairos::host::advance_clock(10000);
    EXPECT_EQ(hits, 51);
}

// In the kernel, idle() jumps to the ticker's alarm before a later sleep
// deadline; the callback wakes a thread there.
TEST_F(host_clock, ticker_alarm_wakes_the_idle_kernel) {
    ks::begin();
    static k::pid sleeper;
    static kairos::ticker t;
    static std::uint64_t t0;
    t0 = port::now_us();
    sleeper = ks::spawn(3, [](void*) {
        k::sleep();
        KT_CHECK_EQ(port::now_us() - t0, 700u);
        ks::log.add(1);
    });
    ks::spawn(8, [](void*) {
        KT_CHECK(t.once_us(700, [] { KT_CHECK_EQ(k::wakeup(sleeper), 1); }));
        k::sleep_us(5000);
        KT_CHECK_EQ(port::now_us() - t0, 5000u);
        ks::log.add(2);
    });
    ks::finish();
    KT_CHECK(ks::log.equals({1, 2}));
}

}  // namespace

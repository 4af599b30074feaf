// SPDX-License-Identifier: MIT
// framework.esp32_port: port/framework_esp32 compiled and run on the host
// against the ESP-IDF stand-in (esp32_stub/), NOT against ESP-IDF: the
// rings, the deferred scheduler, the ticker and the ESP8266 compat layer
// (Schedule.h, circular_queue, PolledTimeout, Ticker) on the port's clock,
// critical section, ticker and wake hook. Two host threads play the two
// cores; each check is order-based (no wall time).
#include <Arduino.h>
#include <PolledTimeout.h>
#include <Schedule.h>
#include <Ticker.h>
#include <circular_queue.h>
#include <circular_queue_mp.h>

#include <kairos/deferred.hpp>
#include <kairos/irq_section.hpp>
#include <kairos/mpsc_ring.hpp>
#include <kairos/port.hpp>
#include <kairos/rmw.hpp>
#include <kairos/ticker.hpp>
#include <kairos_framework.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "esp32_stub.hpp"

static_assert(KAIROS_PORT_IRQ_INLINE == 0, "the framework_esp32 port's masks are out of line");

namespace {

class esp32_port : public ::testing::Test {
protected:
    void SetUp() override {
        esp32_stub::set_core(0);
        esp32_stub::set_in_isr(false);
        esp32_stub::reset_counts();
    }
};

// relaxed on every counter read below: the threads that wrote them were joined.
std::uint64_t get(const std::atomic<std::uint64_t>& c) { return c.load(std::memory_order_relaxed); }

TEST_F(esp32_port, name_and_clock_are_the_frameworks) {
    EXPECT_STREQ(kairos::port::name(), "framework_esp32");
    EXPECT_STREQ(KAIROS_PORT_NAME, "framework_esp32");
    esp32_stub::advance_to(esp32_stub::now() + 1234567);
    EXPECT_EQ(kairos::port::now_us(), static_cast<std::uint64_t>(esp32_stub::now()));
    EXPECT_EQ(micros(), static_cast<std::uint32_t>(esp32_stub::now()));
    const std::uint64_t t0 = kairos::port::now_us();
    esp32_stub::advance_to(esp32_stub::now() + 5000);
    EXPECT_EQ(kairos::port::now_us() - t0, 5000u);
}

TEST_F(esp32_port, mask_is_the_spinlock_critical_section_in_task_and_isr_context) {
    EXPECT_FALSE(kairos::port::in_isr());
    const auto a = kairos::port::irq_disable();
    EXPECT_EQ(esp32_stub::masked_depth(), 1);
    const auto b = kairos::port::irq_disable();  // nests on one core
    EXPECT_EQ(esp32_stub::masked_depth(), 2);
    kairos::port::irq_restore(b);
    kairos::port::irq_restore(a);
    EXPECT_EQ(esp32_stub::masked_depth(), 0);
    EXPECT_EQ(get(esp32_stub::counts().enter_task), 2u);
    EXPECT_EQ(get(esp32_stub::counts().exit_task), 2u);
    EXPECT_EQ(get(esp32_stub::counts().enter_isr), 0u);

    esp32_stub::set_in_isr(true);
    EXPECT_TRUE(kairos::port::in_isr());
    kairos::port::irq_restore(kairos::port::irq_disable());
    EXPECT_EQ(get(esp32_stub::counts().enter_isr), 1u);
    EXPECT_EQ(get(esp32_stub::counts().exit_isr), 1u);
    EXPECT_EQ(get(esp32_stub::counts().enter_task), 2u);
}

using masked = kairos::rmw_masked<kairos::irq_section>;

TEST_F(esp32_port, masked_claim_from_isr_and_from_a_task) {
    kairos::mpsc_ring<int, 8, std::uint32_t, masked> ring;
    ASSERT_TRUE(ring.try_push(1));  // task context
    EXPECT_GE(get(esp32_stub::counts().enter_task), 1u);
    EXPECT_EQ(get(esp32_stub::counts().enter_isr), 0u);
    esp32_stub::set_in_isr(true);
    ASSERT_TRUE(ring.try_push(2));  // an interrupt on this core
    EXPECT_GE(get(esp32_stub::counts().enter_isr), 1u);
    esp32_stub::set_in_isr(false);
    EXPECT_EQ(esp32_stub::masked_depth(), 0);
    int v = 0;
    ASSERT_TRUE(ring.try_pop(v));
    EXPECT_EQ(v, 1);
    ASSERT_TRUE(ring.try_pop(v));
    EXPECT_EQ(v, 2);
    EXPECT_FALSE(ring.try_pop(v));
}

// The claim of core 1 (here an interrupt there) waits while core 0 holds
// the critical section: it is the spinlock, not only this core's mask.
TEST_F(esp32_port, mask_excludes_the_other_core) {
    kairos::mpsc_ring<int, 8, std::uint32_t, masked> ring;
    // acquire/release: the flag publishes the other core's push.
    std::atomic<bool> pushed{false};
    const auto s = kairos::port::irq_disable();
    std::thread core1([&] {
        esp32_stub::set_core(1);
        esp32_stub::set_in_isr(true);
        const bool ok = ring.try_push(42);
        pushed.store(ok, std::memory_order_release);
    });
    // Until core 1 has failed on the spinlock at least once, or (broken
    // mask) finished its push.
    // relaxed: a progress signal; the outcome is read with acquire below.
    while (esp32_stub::counts().spin_waits.load(std::memory_order_relaxed) == 0 &&
           !pushed.load(std::memory_order_acquire)) {
        std::this_thread::yield();
    }
    EXPECT_FALSE(pushed.load(std::memory_order_acquire)) << "core 1 claimed while core 0 held the mask";
    EXPECT_EQ(ring.size(), 0u);
    kairos::port::irq_restore(s);
    core1.join();
    EXPECT_TRUE(pushed.load(std::memory_order_acquire));
    int v = 0;
    ASSERT_TRUE(ring.try_pop(v));
    EXPECT_EQ(v, 42);
}

struct item {
    std::uint32_t producer;
    std::uint32_t seq;
};

// Two cores push n items each (every third from "interrupt context") into
// one ring; the consumer sees every item of each producer once, in order.
template <class Rmw>
void hammer(std::uint32_t n) {
    kairos::mpsc_ring<item, 64, std::uint32_t, Rmw> ring;
    // relaxed: the count of finished producers only ends the consumer loop;
    // the items themselves are ordered by the ring.
    std::atomic<int> done{0};
    auto producer = [&](std::uint32_t core) {
        esp32_stub::set_core(core);
        for (std::uint32_t i = 0; i < n; ++i) {
            esp32_stub::set_in_isr(i % 3 == 0);
            while (!ring.try_push(item{core, i})) std::this_thread::yield();
        }
        esp32_stub::set_in_isr(false);
        done.fetch_add(1, std::memory_order_relaxed);
    };
    std::thread c0(producer, 0u), c1(producer, 1u);
    std::uint32_t next[2] = {0, 0};
    std::uint32_t bad = 0;
    for (;;) {
        item it{};
        if (ring.try_pop(it)) {
            if (it.producer > 1 || it.seq != next[it.producer]) {
                if (bad++ < 5) {
                    ADD_FAILURE() << "producer " << it.producer << ": got " << it.seq << ", expected "
                                  << (it.producer > 1 ? 0 : next[it.producer]);
                }
                if (it.producer <= 1 && it.seq >= next[it.producer]) next[it.producer] = it.seq + 1;
            } else {
                ++next[it.producer];
            }
        } else if (done.load(std::memory_order_relaxed) == 2 && ring.size() == 0) {
            break;
        } else {
            std::this_thread::yield();
        }
    }
    c0.join();
    c1.join();
    EXPECT_EQ(bad, 0u);
    EXPECT_EQ(next[0], n);
    EXPECT_EQ(next[1], n);
}

TEST_F(esp32_port, two_cores_hammer_the_mpsc_ring_through_the_masked_claim) {
    hammer<masked>(100000);
    EXPECT_GT(get(esp32_stub::counts().enter_isr), 0u);
    EXPECT_GT(get(esp32_stub::counts().enter_task), 0u);
    EXPECT_EQ(get(esp32_stub::counts().enter_task), get(esp32_stub::counts().exit_task));
    EXPECT_EQ(get(esp32_stub::counts().enter_isr), get(esp32_stub::counts().exit_isr));
}

TEST_F(esp32_port, two_cores_hammer_the_mpsc_ring_through_cas) {
    hammer<kairos::rmw_cas>(100000);
    EXPECT_EQ(get(esp32_stub::counts().enter_task) + get(esp32_stub::counts().enter_isr), 0u)
        << "the CAS claim takes no critical section";
}

TEST_F(esp32_port, wake_hook_notifies_the_consumer_task) {
    kairos::deferred<8, 4> d;
    TaskHandle_t consumer = esp32_stub::make_task();
    esp32_stub::set_current_task(consumer);
    d.set_wake_hook(kairos::framework::wake, xTaskGetCurrentTaskHandle());
    int ran = 0;
    ASSERT_TRUE(d.schedule([&ran] { ++ran; }));  // from a task
    EXPECT_EQ(get(esp32_stub::counts().notify_task), 1u);
    EXPECT_EQ(get(esp32_stub::counts().yield_from_isr), 0u);
    esp32_stub::set_in_isr(true);
    ASSERT_TRUE(d.schedule([&ran] { ++ran; }));  // from an interrupt
    esp32_stub::set_in_isr(false);
    EXPECT_EQ(get(esp32_stub::counts().notify_isr), 1u);
    EXPECT_EQ(get(esp32_stub::counts().yield_from_isr_true), 1u) << "portYIELD_FROM_ISR(pdTRUE)";
    EXPECT_EQ(ulTaskNotifyTake(pdTRUE, portMAX_DELAY), 2u);
    EXPECT_EQ(d.run(), 2u);
    EXPECT_EQ(ran, 2);
    EXPECT_EQ(ulTaskNotifyTake(pdTRUE, 0), 0u);
    d.set_wake_hook(nullptr, nullptr);
    esp32_stub::set_current_task(nullptr);
}

// Both cores schedule into one deferred scheduler with the wake hook set:
// every push wakes the consumer, every function runs once, in order per core.
TEST_F(esp32_port, two_cores_schedule_into_deferred) {
    static kairos::deferred<64, 4> d;
    TaskHandle_t consumer = esp32_stub::make_task();
    d.set_wake_hook(kairos::framework::wake, consumer);
    constexpr std::uint32_t n = 20000;
    static std::uint32_t next[2];
    static std::uint32_t bad;
    next[0] = next[1] = bad = 0;
    // relaxed: see hammer().
    std::atomic<int> done{0};
    std::atomic<std::uint64_t> pushes{0};
    auto producer = [&](std::uint32_t core) {
        esp32_stub::set_core(core);
        for (std::uint32_t i = 0; i < n; ++i) {
            esp32_stub::set_in_isr(i % 2 == 0);
            while (!d.schedule([core, i] {
                if (next[core] != i) ++bad;
                next[core] = i + 1;
            })) {
                std::this_thread::yield();
            }
            // relaxed: a statistic.
            pushes.fetch_add(1, std::memory_order_relaxed);
        }
        done.fetch_add(1, std::memory_order_relaxed);
    };
    std::thread c0(producer, 0u), c1(producer, 1u);
    while (done.load(std::memory_order_relaxed) < 2 || d.pending() != 0) {
        if (d.run() == 0) std::this_thread::yield();
    }
    c0.join();
    c1.join();
    d.run();
    d.set_wake_hook(nullptr, nullptr);
    EXPECT_EQ(bad, 0u);
    EXPECT_EQ(next[0], n);
    EXPECT_EQ(next[1], n);
    // relaxed: the producers were joined.
    EXPECT_EQ(consumer->notified.load(std::memory_order_relaxed), pushes.load(std::memory_order_relaxed));
}

TEST_F(esp32_port, ticker_runs_on_esp_timer) {
    const int live = esp32_stub::live_timers();
    {
        kairos::ticker t;
        int fired = 0;
        ASSERT_TRUE(t.attach_us(1000, [&fired] { ++fired; }));
        EXPECT_EQ(esp32_stub::last_dispatch(), ESP_TIMER_TASK);
        EXPECT_EQ(esp32_stub::live_timers(), live + 1);
        EXPECT_TRUE(t.active());
        esp32_stub::advance_to(esp32_stub::now() + 3500);
        EXPECT_EQ(fired, 3);
        // Re-arming replaces the arming and keeps the one timer.
        int once = 0;
        ASSERT_TRUE(t.once_us(500, [&once] { ++once; }));
        EXPECT_EQ(esp32_stub::live_timers(), live + 1);
        esp32_stub::advance_to(esp32_stub::now() + 5000);
        EXPECT_EQ(once, 1);
        EXPECT_EQ(fired, 3);
        EXPECT_FALSE(t.active());
        ASSERT_TRUE(t.attach_ms(2, [&fired] { ++fired; }));
        esp32_stub::advance_to(esp32_stub::now() + 2000);
        EXPECT_EQ(fired, 4);
        t.detach();
        EXPECT_FALSE(t.active());
        esp32_stub::advance_to(esp32_stub::now() + 10000);
        EXPECT_EQ(fired, 4);
        EXPECT_FALSE(t.attach_us(0, [] {}));
        EXPECT_EQ(kairos::ticker::signal_number(), -1);
    }
    EXPECT_EQ(esp32_stub::live_timers(), live) << "~ticker deletes its esp_timer";
}

TEST_F(esp32_port, ticker_may_detach_itself) {
    kairos::ticker t;
    int fired = 0;
    ASSERT_TRUE(t.attach_us(100, [&] {
        if (++fired == 2) t.detach();
    }));
    esp32_stub::advance_to(esp32_stub::now() + 1000);
    EXPECT_EQ(fired, 2);
}

TEST_F(esp32_port, esp8266_compat_layer_on_the_port) {
    // Schedule.h: from a task and from an interrupt, run in the loop.
    std::vector<int> order;
    ASSERT_TRUE(schedule_function([&order] { order.push_back(1); }));
    esp32_stub::set_in_isr(true);
    ASSERT_TRUE(schedule_function([&order] { order.push_back(2); }));
    esp32_stub::set_in_isr(false);
    run_scheduled_functions();
    EXPECT_EQ(order, (std::vector<int>{1, 2}));

    // Recurrent functions on esp_timer_get_time().
    int rec = 0;
    ASSERT_TRUE(schedule_recurrent_function_us([&rec] { return ++rec < 3; }, 1000));
    run_scheduled_recurrent_functions();
    const int before = rec;
    for (int i = 0; i < 5; ++i) {
        esp32_stub::advance_to(esp32_stub::now() + 1000);
        run_scheduled_recurrent_functions();
    }
    EXPECT_GT(rec, before);
    EXPECT_EQ(rec, 3);

    // PolledTimeout on the port's millis().
    esp8266::polledTimeout::oneShotMs timeout(5);
    EXPECT_FALSE(timeout.expired());
    esp32_stub::advance_to(esp32_stub::now() + 4000);
    EXPECT_FALSE(timeout.expired());
    esp32_stub::advance_to(esp32_stub::now() + 1000);
    EXPECT_TRUE(timeout.expired());

    // circular_queue and circular_queue_mp (the latter pushed from an
    // interrupt on the other core's record).
    circular_queue<int> q(4);
    EXPECT_TRUE(q.push(7));
    EXPECT_EQ(q.pop(), 7);
    circular_queue_mp<int> mq(4);
    esp32_stub::set_in_isr(true);
    EXPECT_TRUE(mq.push(8));
    esp32_stub::set_in_isr(false);
    EXPECT_EQ(mq.pop(), 8);

    // Ticker.h: attach_ms_scheduled queues the callback for the loop.
    Ticker tk;
    int ticks = 0;
    tk.attach_ms_scheduled(1, [&ticks] { ++ticks; });
    esp32_stub::advance_to(esp32_stub::now() + 3000);
    EXPECT_EQ(ticks, 0);
    run_scheduled_functions();
    EXPECT_EQ(ticks, 3);
    tk.detach();
}

}  // namespace

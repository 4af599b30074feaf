// SPDX-License-Identifier: MIT
// Semaphore, condition variable and queue scenarios
// (tests/scenarios/services_scenarios.hpp) and the deadline scenarios
// (deadline_scenarios.hpp) on this build's port;
// tests/port/ports.cmake builds this file again for every other host port
// and kernel variant.
#include <gtest/gtest.h>

#include <kairos/kernel/thread.hpp>
#include <kairos/port.hpp>

#include <csignal>

#include "deadline_scenarios.hpp"
#include "kairos_host.hpp"
#include "services_scenarios.hpp"

namespace {

namespace ks = scenarios::kernel;
using int_queue = kairos::kernel::queue<int, 2>;  // a comma-free name for EXPECT_DEATH

// The interrupt line is SIGUSR1, raised synchronously; time is the port's
// virtual clock, so deadlines end when every thread is blocked.
class services : public ::testing::Test {
protected:
    void SetUp() override {
        kairos::host::use_virtual_clock(true);
        ASSERT_TRUE(kairos::host::attach_signal(SIGUSR1, ks::isr_entry));
    }
    void TearDown() override {
        kairos::host::detach_signal(SIGUSR1);
        kairos::host::use_virtual_clock(false);
    }
    static void trigger() { raise(SIGUSR1); }
};

TEST_F(services, sem_counts_to_max) { ks::sem_counts_to_max(); }
TEST_F(services, sem_priority_order) { ks::sem_priority_order(); }
TEST_F(services, sem_handoff) { ks::sem_handoff(); }
TEST_F(services, sem_take_for) { ks::sem_take_for(); }
TEST_F(services, sem_timeout_races_give) { ks::sem_timeout_races_give(); }
TEST_F(services, sem_give_from_isr) { ks::sem_give_from_isr(trigger); }
TEST_F(services, cv_signal_priority_order) { ks::cv_signal_priority_order(); }
TEST_F(services, cv_broadcast) { ks::cv_broadcast(); }
TEST_F(services, cv_wait_for) { ks::cv_wait_for(); }
TEST_F(services, cv_reacquire_inherits) { ks::cv_reacquire_inherits(); }
TEST_F(services, cv_signal_from_isr) { ks::cv_signal_from_isr(trigger); }
TEST_F(services, queue_fifo_and_full) { ks::queue_fifo_and_full(); }
TEST_F(services, queue_movable_elements) { ks::queue_movable_elements(); }
TEST_F(services, queue_receivers_in_priority_order) { ks::queue_receivers_in_priority_order(); }
TEST_F(services, queue_senders_in_priority_order) { ks::queue_senders_in_priority_order(); }
TEST_F(services, queue_timeouts) { ks::queue_timeouts(); }
TEST_F(services, queue_timeout_races_send) { ks::queue_timeout_races_send(); }
TEST_F(services, queue_send_from_isr) { ks::queue_send_from_isr(trigger); }
// deadline_scenarios.hpp
TEST_F(services, deadline_receive) { ks::deadline_receive(); }
TEST_F(services, deadline_send) { ks::deadline_send(); }
TEST_F(services, deadline_flags) { ks::deadline_flags(); }
TEST_F(services, deadline_races) { ks::deadline_races(); }
TEST_F(services, deadline_saturation) { ks::deadline_saturation(); }
TEST_F(services, deadline_wakeup_from_isr) { ks::deadline_wakeup_from_isr(trigger); }
TEST_F(services, timer_queue_random_order) { ks::timer_queue_random_order(); }

#if KAIROS_ASSERTS
using services_death = services;
// take() from an interrupt is an assertion, not a silent block.
TEST_F(services_death, sem_take_from_isr_is_an_assertion) {
    EXPECT_DEATH(
        {
            ks::begin();
            static kairos::kernel::semaphore s{1};
            ks::isr_body = [] { s.take(); };
            ks::spawn(5, [](void*) { trigger(); });
            ks::finish();
        },
        "in_isr");
}
TEST_F(services_death, sem_initial_above_max_is_an_assertion) {
    EXPECT_DEATH(
        {
            volatile std::uint32_t initial = 3;
            kairos::kernel::semaphore s(initial, 2);
            (void)s;
        },
        "semaphore: need");
}
// condvar::wait() with a mutex the caller does not own is an assertion.
TEST_F(services_death, cv_wait_without_the_mutex_is_an_assertion) {
    EXPECT_DEATH(
        {
            ks::begin();
            ks::spawn(5, [](void*) {
                static kairos::kernel::mutex m;
                static kairos::kernel::condvar cv;
                cv.wait(m);
            });
            ks::finish();
        },
        "owner");
}
// A blocking receive from an interrupt is an assertion.
TEST_F(services_death, queue_receive_from_isr_is_an_assertion) {
    EXPECT_DEATH(
        {
            ks::begin();
            static int_queue q;
            ks::isr_body = [] {
                int v = 0;
                q.receive(v);
            };
            ks::spawn(5, [](void*) { trigger(); });
            ks::finish();
        },
        "in_isr");
}
#endif

}  // namespace

// SPDX-License-Identifier: MIT
// Kernel scenarios (tests/scenarios/kernel_scenarios.hpp) on this build's
// port; tests/port/ports.cmake builds this file again for every other host
// port of the processor and for the other run-queue encoding.
#include <gtest/gtest.h>

#include <kairos/kernel/thread.hpp>
#include <kairos/port.hpp>

#include <csignal>
#include <cstring>

#include "kairos_host.hpp"
#include "kernel_scenarios.hpp"

namespace {

namespace ks = scenarios::kernel;

// raise() delivers SIGUSR1 to this thread before it returns: a synchronous
// stand-in for an interrupt line.
void trigger() { raise(SIGUSR1); }

// Every scenario runs on the port's virtual clock: sleeps and timeouts end
// when every thread is blocked, never because the machine was slow.
class kernel : public ::testing::Test {
protected:
    void SetUp() override {
        kairos::host::use_virtual_clock(true);
        ASSERT_TRUE(kairos::host::attach_signal(SIGUSR1, ks::isr_entry));
        std::printf("port %s, run queue %s\n", kairos::port::name(),
                    KAIROS_RUNQUEUE_CLZ ? "clz (reversed)" : "lsb");
    }
    void TearDown() override {
        kairos::host::detach_signal(SIGUSR1);
        kairos::host::use_virtual_clock(false);
    }
};

TEST_F(kernel, priority_order) { ks::priority_order(); }
TEST_F(kernel, create_preempts) { ks::create_preempts(); }
TEST_F(kernel, change_priority) { ks::change_priority(); }
TEST_F(kernel, yield_vs_yield_higher) { ks::yield_vs_yield_higher(); }
TEST_F(kernel, yield_picks_best) { ks::yield_picks_best(); }
TEST_F(kernel, sleep_and_wakeup) { ks::sleep_and_wakeup(); }
TEST_F(kernel, isr_wakes_higher) {
    const unsigned long deferred = kairos::host::deferred_count();
    ks::isr_wakes_higher(trigger);
    EXPECT_EQ(kairos::host::deferred_count(), deferred + 1);  // the masked raise was deferred
}
TEST_F(kernel, flags_from_isr) { ks::flags_from_isr(trigger); }
TEST_F(kernel, mutex_order_and_handoff) { ks::mutex_order_and_handoff(); }
TEST_F(kernel, mutex_trylock) { ks::mutex_trylock(); }
TEST_F(kernel, priority_inversion_inherit) { ks::priority_inversion(true); }
TEST_F(kernel, priority_inversion_plain_mutex_inverts) { ks::priority_inversion(false); }
TEST_F(kernel, inheritance_nested_and_handoff) { ks::inheritance_nested_and_handoff(); }
TEST_F(kernel, boosted_sender_served_first) { ks::boosted_sender_served_first(); }
TEST_F(kernel, inherit_handoff_recomputes_new_owner) { ks::inherit_handoff_recomputes_new_owner(); }
TEST_F(kernel, mutex_lock_for_times_out) { ks::mutex_lock_for_times_out(); }
TEST_F(kernel, mutex_lock_for_breaks_deadlock) { ks::mutex_lock_for_breaks_deadlock(); }
TEST_F(kernel, mutex_lock_for_served) { ks::mutex_lock_for_served(); }
TEST_F(kernel, msg_exchange) { ks::msg_exchange(trigger); }
TEST_F(kernel, msg_and_mutex_stress) { ks::msg_and_mutex_stress(trigger, 20000); }
TEST_F(kernel, thread_flood) { ks::thread_flood(); }
TEST_F(kernel, bad_input) { ks::bad_input(); }
TEST_F(kernel, run_returns_when_all_blocked) { ks::run_returns_when_all_blocked(); }
TEST_F(kernel, stack_high_water) { ks::stack_high_water(); }
TEST_F(kernel, idle_thread_hook) { ks::idle_thread_hook(); }

TEST_F(kernel, port_name_matches_build) {
    EXPECT_STREQ(kairos::port::name(), KAIROS_TEST_PORT);
}

using kernel_death = kernel;
TEST_F(kernel_death, stack_overflow_is_reported_with_name_and_size) {
    const std::string want = "stack overflow in thread 'victim' \\(pid 1, stack " +
                             std::to_string(ks::stack_size) + " bytes\\)";
    EXPECT_DEATH(ks::stack_overflow_victim(), want);
}

#if KAIROS_ASSERTS
TEST_F(kernel_death, blocking_with_interrupts_masked_is_an_assertion) {
    EXPECT_DEATH(
        {
            ks::begin();
            ks::spawn(5, [](void*) {
                const auto s = kairos::port::irq_disable();
                kairos::kernel::sleep();
                kairos::port::irq_restore(s);
            });
            ks::finish();
        },
        "s == 0");
}
#endif

}  // namespace

// SPDX-License-Identifier: MIT
// Host port conformance: the virtual interrupt mask and signals as
// interrupts (port/host_common), on every host port (tests/port/ports.cmake).
#include <gtest/gtest.h>

#include <kairos/port.hpp>

#include <csignal>

#include "kairos_host.hpp"

namespace {

namespace port = kairos::port;

int runs = 0;
bool saw_isr = false;
port::irq_state state_in_handler = 0;

void handler() {
    ++runs;
    saw_isr = port::in_isr();
    state_in_handler = port::irq_disable();  // masked inside a handler
    port::irq_restore(state_in_handler);
}

class host_irq : public ::testing::Test {
protected:
    void SetUp() override {
        runs = 0;
        saw_isr = false;
        ASSERT_TRUE(kairos::host::attach_signal(SIGUSR2, handler));
    }
    void TearDown() override { kairos::host::detach_signal(SIGUSR2); }
};

TEST_F(host_irq, unmasked_signal_runs_at_once_as_isr) {
    EXPECT_FALSE(port::in_isr());
    raise(SIGUSR2);
    EXPECT_EQ(runs, 1);
    EXPECT_TRUE(saw_isr);
    EXPECT_NE(state_in_handler, 0u);
    EXPECT_FALSE(port::in_isr());
}

TEST_F(host_irq, masked_signal_is_deferred_to_the_unmasking_restore) {
    const unsigned long before = kairos::host::deferred_count();
    const port::irq_state outer = port::irq_disable();
    EXPECT_EQ(outer, 0u);
    const port::irq_state inner = port::irq_disable();  // nests
    EXPECT_NE(inner, 0u);
    raise(SIGUSR2);
    raise(SIGUSR2);  // coalesces with the first while masked, like a pending IRQ
    EXPECT_EQ(runs, 0);
    port::irq_restore(inner);
    EXPECT_EQ(runs, 0);  // still masked
    port::irq_restore(outer);
    EXPECT_EQ(runs, 1);
    EXPECT_TRUE(saw_isr);
    EXPECT_EQ(kairos::host::deferred_count(), before + 1);
}

// On the virtual clock (no wall time): idle() ends at its deadline exactly,
// and at once when a signal is pending.
TEST_F(host_irq, idle_returns_after_a_signal_or_the_deadline) {
    kairos::host::use_virtual_clock(true);
    const port::irq_state s = port::irq_disable();
    const std::uint64_t t0 = port::now_us();
    port::idle(t0 + 2000);  // no signal: the deadline
    EXPECT_EQ(port::now_us(), t0 + 2000);
    raise(SIGUSR2);  // deferred while masked: idle runs it and returns at once
    port::idle(t0 + 5000);
    EXPECT_EQ(runs, 1);
    EXPECT_EQ(port::now_us(), t0 + 2000);
    raise(SIGUSR2);
    port::idle(UINT64_MAX);  // nothing timed: waits for the signal, already here
    EXPECT_EQ(runs, 2);
    port::irq_restore(s);
    kairos::host::use_virtual_clock(false);
}

// The real clock: idle() with a signal pending returns without waiting
// (the test hangs, not fails, if it waited).
TEST_F(host_irq, real_idle_returns_for_a_pending_signal) {
    const port::irq_state s = port::irq_disable();
    raise(SIGUSR2);
    port::idle(UINT64_MAX);
    EXPECT_EQ(runs, 1);
    port::irq_restore(s);
}

TEST(host_port, bad_signal_numbers_are_refused) {
    EXPECT_FALSE(kairos::host::attach_signal(0, handler));
    EXPECT_FALSE(kairos::host::attach_signal(64, handler));
    EXPECT_FALSE(kairos::host::attach_signal(SIGUSR2, nullptr));
}

TEST(host_port, stack_contract) {
    EXPECT_GE(port::stack_align, 16u);
    EXPECT_GT(port::min_stack_size(), 0u);
    EXPECT_STREQ(port::name(), KAIROS_TEST_PORT);
}

}  // namespace

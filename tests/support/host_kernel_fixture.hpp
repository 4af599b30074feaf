// SPDX-License-Identifier: MIT
// host_kernel_fixture.hpp: the GoogleTest fixture of the host kernel tests
// that run portable scenarios: the port's virtual clock (a sleep or timeout
// ends when every thread is blocked, never by wall time) and SIGUSR1 as the
// scenarios' interrupt line (scenarios::kernel::isr_entry).
#pragma once

#include <gtest/gtest.h>

#include <csignal>

#include "kairos_host.hpp"
#include "kernel_scenarios.hpp"

namespace ktest_host {

// trigger() raises SIGUSR1, delivered to this thread before raise()
// returns: a synchronous stand-in for an interrupt line.
inline void trigger() { raise(SIGUSR1); }

class kernel_fixture : public ::testing::Test {
protected:
    void SetUp() override {
        kairos::host::use_virtual_clock(true);
        ASSERT_TRUE(kairos::host::attach_signal(SIGUSR1, scenarios::kernel::isr_entry));
    }
    void TearDown() override {
        kairos::host::detach_signal(SIGUSR1);
        kairos::host::use_virtual_clock(false);
    }
};

}  // namespace ktest_host

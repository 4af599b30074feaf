// SPDX-License-Identifier: MIT
// Time-slicing scenarios (tests/scenarios/timeslice_scenarios.hpp) on this
// build's port; tests/port/ports.cmake builds this file again for every
// other host port and kernel variant, the `slice` variant with
// KAIROS_TIME_SLICE_US. Host ports have no tick: the harness's 1000 µs
// virtual alarm (SIGUSR2) stands in for it and calls the kernel's slice
// check, and a busy iteration advances virtual time by 20 µs, the kernel
// entry where a switch the alarm requested is taken. Everything is on the
// port's virtual clock, so the runs are the same on a loaded machine.
#include <gtest/gtest.h>

#include <kairos/kernel/thread.hpp>
#include <kairos/port.hpp>

#include <csignal>
#include <cstdint>

#include "kairos_host.hpp"
#include "timeslice_scenarios.hpp"

namespace {

namespace ts = scenarios::kernel::timeslice;

constexpr std::uint64_t tick_us = 1000;
void (*tick_fn)() = nullptr;

void on_tick() {
    [[maybe_unused]] bool keep = false;  // an MCU port stops its tick when false
    KAIROS_SCHED_TICK(keep);             // what an MCU port's tick does
    if (tick_fn != nullptr) tick_fn();
    kairos::host::set_virtual_alarm(SIGUSR2, kairos::port::now_us() + tick_us);
}

const ts::slice_harness host_harness{
    [] { kairos::host::advance_clock(20); },
    [](void (*fn)()) {
        tick_fn = fn;
        kairos::host::set_virtual_alarm(SIGUSR2, kairos::port::now_us() + tick_us);
    },
    [] { kairos::host::set_virtual_alarm(SIGUSR2, UINT64_MAX); },
};

class timeslice : public ::testing::Test {
protected:
    void SetUp() override {
        kairos::host::use_virtual_clock(true);
        ASSERT_TRUE(kairos::host::attach_signal(SIGUSR2, on_tick));
    }
    void TearDown() override {
        kairos::host::set_virtual_alarm(SIGUSR2, UINT64_MAX);
        kairos::host::detach_signal(SIGUSR2);
        kairos::host::use_virtual_clock(false);
    }
};

#if KAIROS_TIME_SLICE_US
TEST_F(timeslice, slicing_shares_level) { ts::slicing_shares_level(host_harness); }
#else
TEST_F(timeslice, slicing_off_runs_first_until_yield) { ts::slicing_off_runs_first_until_yield(host_harness); }
#endif
TEST_F(timeslice, higher_priority_preempts) { ts::higher_priority_preempts(host_harness); }

}  // namespace

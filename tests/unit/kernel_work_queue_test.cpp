// SPDX-License-Identifier: MIT
// Work-queue scenarios (tests/scenarios/work_queue_scenarios.hpp) on this
// build's port, on the port's virtual clock; tests/port/ports.cmake builds
// this file again for every other host port of the processor.
#include <gtest/gtest.h>

#include "host_kernel_fixture.hpp"
#include "work_queue_scenarios.hpp"

namespace {

namespace wq = scenarios::work_queue;
using ktest_host::trigger;
using work_queue = ktest_host::kernel_fixture;

TEST_F(work_queue, isr_schedule_runs_in_order) { wq::isr_schedule_runs_in_order(trigger); }
TEST_F(work_queue, delayed_and_periodic) { wq::delayed_and_periodic(); }
TEST_F(work_queue, isr_registration_moves_deadline) { wq::isr_registration_moves_deadline(trigger); }
TEST_F(work_queue, cancel_from_thread_and_isr) { wq::cancel_from_thread_and_isr(trigger); }
TEST_F(work_queue, overflow_counted) { wq::overflow_counted(); }
TEST_F(work_queue, misuse_and_restart) { wq::misuse_and_restart(); }
TEST_F(work_queue, timers_once_periodic_restart_stop) { wq::timers_once_periodic_restart_stop(trigger); }
TEST_F(work_queue, timer_stop_guarantee) { wq::timer_stop_guarantee(trigger); }

}  // namespace

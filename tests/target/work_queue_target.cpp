// SPDX-License-Identifier: MIT
// Work-queue scenarios (tests/scenarios/work_queue_scenarios.hpp) on the
// target's kernel port: interrupt to queue thread, delayed and periodic
// work on the kernel's time (the port's timer waking port::idle()),
// cancellation from an interrupt, overflow, misuse and restart, timers. The
// interrupt is the test interrupt of soft_irq.hpp (Cortex-M: IRQ0).
#include "soft_irq.hpp"
#include "target.hpp"

#ifndef KAIROS_SCENARIO_STACK
#  define KAIROS_SCENARIO_STACK (2 * 1024)
#endif
#include "runner.hpp"
#include "work_queue_scenarios.hpp"

namespace ks = scenarios::kernel;
namespace wq = scenarios::work_queue;

#if !defined(__XTENSA__) && !defined(__riscv)
extern "C" void IRQ0_Handler() { ks::isr_entry(); }
#endif

namespace {
void trigger() { ktarget::pend_irq<ks::isr_entry>(0); }

void isr_schedule_runs_in_order() { wq::isr_schedule_runs_in_order(trigger); }
void isr_registration_moves_deadline() { wq::isr_registration_moves_deadline(trigger); }
void cancel_from_thread_and_isr() { wq::cancel_from_thread_and_isr(trigger); }
void timers_once_periodic_restart_stop() { wq::timers_once_periodic_restart_stop(trigger); }
void timer_stop_guarantee() { wq::timer_stop_guarantee(trigger); }
}  // namespace

int main() {
    static const ktarget::test_case cases[] = {
        {"isr_schedule_runs_in_order", isr_schedule_runs_in_order},
        {"delayed_and_periodic", wq::delayed_and_periodic},
        {"isr_registration_moves_deadline", isr_registration_moves_deadline},
        {"cancel_from_thread_and_isr", cancel_from_thread_and_isr},
        {"overflow_counted", wq::overflow_counted},
        {"misuse_and_restart", wq::misuse_and_restart},
        {"timers_once_periodic_restart_stop", timers_once_periodic_restart_stop},
        {"timer_stop_guarantee", timer_stop_guarantee},
    };
    return ktarget::run(cases);
}

// SPDX-License-Identifier: MIT
// Deferred-scheduler scenarios (tests/scenarios/deferred_scenarios.hpp, fake
// clocks) on the target core, plus the scheduler driven for real: a timer
// interrupt (SysTick; lx106 CCOMPARE0) is the producer, scheduling one-shot
// functions that carry a sequence number, while the main loop run()s them
// and a recurrent function keeps time on the port's clock (now_us()); and
// the interrupt registering and cancelling recurrent functions.
#include <kairos/deferred.hpp>
#include <kairos/port.hpp>

#include <cstdint>

#include "deferred_scenarios.hpp"
#include "runner.hpp"

namespace {

kairos::deferred<16, 4> sched;  // port clock (now_us), 16 one-shot slots

constexpr std::uint32_t isr_items = 2000;
volatile std::uint32_t isr_next = 0;      // next sequence number to schedule
volatile std::uint32_t isr_refused = 0;   // schedule() found the queue full
std::uint32_t expect = 0;                 // next sequence number run() must see
std::uint32_t out_of_order = 0;

// tick_producer() runs in the timer interrupt: schedule the next item; on a
// full queue leave isr_next alone and retry on the next tick.
void tick_producer() {
    const std::uint32_t seq = isr_next;
    if (seq == isr_items) return;
    if (sched.schedule([seq] {
            if (seq != expect) ++out_of_order;
            expect = seq + 1;
        })) {
        isr_next = seq + 1;
    } else {
        isr_refused = isr_refused + 1;
    }
}

void isr_producer_main_loop_consumer() {
    std::uint32_t recurrent_runs = 0;
    const std::uint64_t t0 = kairos::port::now_us();
    KT_REQUIRE(sched.schedule_recurrent(
        [&recurrent_runs] {
            ++recurrent_runs;
            return true;
        },
        1000));
    ktarget::periodic_irq_start(7, tick_producer);  // every 7 us
    std::uint32_t passes = 0;
    while (expect < isr_items) {
        sched.run();
        sched.run_recurrent();
        if (++passes % 64 == 0) {  // now and then stall, so the queue fills up
            const std::uint64_t until = kairos::port::now_us() + 7 * 20;
            while (kairos::port::now_us() < until) {
            }
        }
    }
    ktarget::periodic_irq_stop();
    sched.run();
    const std::uint64_t elapsed = kairos::port::now_us() - t0;
    KT_CHECK_EQ(out_of_order, 0u);
    KT_CHECK_EQ(expect, isr_items);        // every scheduled item ran once
    KT_CHECK(isr_refused > 0);             // the full-queue path ran
    KT_CHECK_EQ(sched.overflows(), isr_refused);  // and every refusal was counted
    // The recurrent function ran about once per millisecond of port time.
    KT_CHECK(recurrent_runs + 2 >= elapsed / 1000 && recurrent_runs <= elapsed / 1000 + 1);
    ktarget::print("  isr items ");
    ktarget::print_u64(isr_items);
    ktarget::print(", refused (queue full) ");
    ktarget::print_u64(isr_refused);
    ktarget::print(", recurrent runs ");
    ktarget::print_u64(recurrent_runs);
    ktarget::print(" in ");
    ktarget::print_u64(elapsed);
    ktarget::print(" us\n");
}

// ---- recurrent functions registered and cancelled by an interrupt ----------

// The interrupt registers recurrent functions (period 0..3 us, some with an
// alarm) that remove themselves after one run, and long ones (one hour) that
// it cancels at its next tick; the main loop only runs run_recurrent(). On
// ARMv6-M and lx106 the claim and the publication run in the port's critical
// section, elsewhere they are CAS loops. Each short function must run
// exactly once, no long one ever, and the pool must end empty.
constexpr std::uint32_t rec_items = 1500;
kairos::deferred<2, 8> rec_sched;  // port clock
using rec_handle = decltype(rec_sched)::handle;
std::uint8_t rec_ran[rec_items];
volatile std::uint32_t rec_next = 0;
volatile std::uint32_t rec_refused = 0;
volatile std::uint32_t rec_cancel_bad = 0;
volatile std::uint32_t rec_ticks = 0;
rec_handle rec_pending_cancel;  // the interrupt's only
volatile bool rec_cancel_due = false;

bool rec_is_long(std::uint32_t id) { return id % 5 == 2; }

bool rec_register_one() {
    const std::uint32_t id = rec_next;
    if (id == rec_items || (rec_is_long(id) && rec_cancel_due)) return false;
    rec_handle h;
    if (rec_is_long(id)) {
        h = rec_sched.schedule_recurrent([id] { ++rec_ran[id]; return true; }, 3600ull * 1000000u);
    } else if (id % 3 == 0) {
        h = rec_sched.schedule_recurrent([id] { ++rec_ran[id]; return false; }, id % 4,
                                         [] { return false; });
    } else {
        h = rec_sched.schedule_recurrent([id] { ++rec_ran[id]; return false; }, id % 4);
    }
    if (!h) {
        rec_refused = rec_refused + 1;  // pool full: retried at the next tick
        return false;
    }
    if (rec_is_long(id)) {
        rec_pending_cancel = h;
        rec_cancel_due = true;
    }
    rec_next = id + 1;
    return true;
}

void rec_tick() {
    if (rec_cancel_due) {
        if (!rec_pending_cancel.cancel()) rec_cancel_bad = rec_cancel_bad + 1;
        if (rec_pending_cancel.cancel()) rec_cancel_bad = rec_cancel_bad + 1;
        rec_cancel_due = false;
    }
    const std::uint32_t tick = rec_ticks;
    rec_ticks = tick + 1;
    const int burst = tick % 32 == 0 ? 12 : 1;  // now and then more than the pool holds
    for (int k = 0; k < burst && rec_register_one(); ++k) {
    }
}

// The main loop registers and cancels too, so the interrupt often lands in
// the middle of the consumer's own work on the same pool.
constexpr std::uint32_t rec_task_items = 600;
std::uint8_t rec_task_ran[rec_task_items];

void isr_registers_and_cancels_recurrent() {
    std::uint32_t task_next = 0, task_refused = 0, task_cancel_bad = 0;
    ktarget::periodic_irq_start(3, rec_tick);
    while (rec_next < rec_items || rec_cancel_due) {
        rec_sched.run_recurrent();
        if (task_next < rec_task_items) {
            const std::uint32_t id = task_next;
            if (rec_sched.schedule_recurrent([id] { ++rec_task_ran[id]; return false; }, id % 2)) {
                ++task_next;
            } else {
                ++task_refused;
            }
            rec_handle h = rec_sched.schedule_recurrent([] { return true; }, 3600ull * 1000000u);
            if (!h) {
                ++task_refused;
            } else if (!h.cancel()) {
                ++task_cancel_bad;
            }
        }
    }
    ktarget::periodic_irq_stop();
    // Everything short is due within 3 us of its registration.
    const std::uint64_t until = kairos::port::now_us() + 10;
    while (kairos::port::now_us() < until) rec_sched.run_recurrent();
    rec_sched.run_recurrent();
    std::uint32_t wrong = 0;
    for (std::uint32_t id = 0; id < rec_items; ++id) {
        if (rec_ran[id] != (rec_is_long(id) ? 0 : 1)) ++wrong;
    }
    for (std::uint32_t id = 0; id < task_next; ++id) {
        if (rec_task_ran[id] != 1) ++wrong;
    }
    KT_CHECK_EQ(wrong, 0u);
    KT_CHECK_EQ(rec_cancel_bad, 0u);
    KT_CHECK_EQ(task_cancel_bad, 0u);
    KT_CHECK(rec_refused > 0);  // the full-pool path ran
    KT_CHECK_EQ(rec_sched.recurrent_overflows(), rec_refused + task_refused);
    KT_CHECK_EQ(rec_sched.recurrent_count(), 0u);
    ktarget::print("  recurrent from isr: ");
    ktarget::print_u64(rec_items);
    ktarget::print(" registered, refused (pool full) ");
    ktarget::print_u64(rec_refused);
    ktarget::print(", from the loop ");
    ktarget::print_u64(task_next);
    ktarget::print("\n");
}

}  // namespace

int main() {
    static const ktarget::test_case cases[] = {
        {"fifo_and_run_boundary", scenarios::deferred_fifo_and_run_boundary},
        {"self_rescheduling", scenarios::deferred_self_rescheduling},
        {"overflow_is_counted", scenarios::deferred_overflow_is_counted},
        {"destroys_callables", scenarios::deferred_destroys_callables},
        {"wake_hook", scenarios::deferred_wake_hook},
        {"wake_hook_recurrent", scenarios::deferred_wake_hook_recurrent},
        {"recurrent_period_and_skip", scenarios::recurrent_period_and_skip},
        {"recurrent_period_zero", scenarios::recurrent_period_zero_runs_every_pass},
        {"recurrent_long_periods", scenarios::recurrent_long_periods_and_order},
        {"recurrent_alarm", scenarios::recurrent_alarm_runs_now_without_rephasing},
        {"recurrent_reentrant", scenarios::recurrent_reentrant_cancel_and_register},
        {"one_shot_manages_recurrent", scenarios::one_shot_manages_recurrent},
        {"recurrent_pool_full", scenarios::recurrent_pool_full_and_stale_handles},
        {"clock_wraparound", scenarios::recurrent_across_clock_wraparound},
        {"timer_queue_order_and_due", scenarios::timer_queue_order_and_due},
        {"polled_timeout_across_wrap", scenarios::polled_timeout_one_shot_and_periodic_across_wrap},
        {"isr_producer_main_loop_consumer", isr_producer_main_loop_consumer},
        {"recurrent_ties_in_registration_order", scenarios::recurrent_ties_in_registration_order},
        {"recurrent_next_due_at_the_end", scenarios::recurrent_next_due_at_the_end_of_the_time_line},
        {"isr_registers_and_cancels_recurrent", isr_registers_and_cancels_recurrent},
    };
    return ktarget::run(cases);
}

// Deferred-scheduler scenarios (tests/scenarios/deferred_scenarios.hpp, fake
// clocks) on the target core, plus the scheduler driven for real: a timer
// interrupt (SysTick; lx106 CCOMPARE0) is the producer, scheduling one-shot
// functions that carry a sequence number, while the main loop run()s them
// and a recurrent function keeps time on the port's clock (now_us()).
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

}  // namespace

int main() {
    static const ktarget::test_case cases[] = {
        {"fifo_and_run_boundary", scenarios::deferred_fifo_and_run_boundary},
        {"self_rescheduling", scenarios::deferred_self_rescheduling},
        {"overflow_is_counted", scenarios::deferred_overflow_is_counted},
        {"destroys_callables", scenarios::deferred_destroys_callables},
        {"wake_hook", scenarios::deferred_wake_hook},
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
    };
    return ktarget::run(cases);
}

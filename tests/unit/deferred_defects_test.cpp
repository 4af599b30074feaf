// SPDX-License-Identifier: MIT
// Defects of the deferred scheduler's recurrent side, each pinned by a test:
// ties in registration order on a fake clock, next_due() near the end of the
// 64-bit time line, and the ESP8266 recurrent names (null callables, the
// delay grain).
#include <gtest/gtest.h>

#include <kairos/deferred.hpp>

#include <Schedule.h>

#include <cstdint>
#include <functional>

#include "deferred_scenarios.hpp"

namespace {

TEST(deferred_defects, ties_run_in_registration_order) {
    scenarios::recurrent_ties_in_registration_order();
}

TEST(deferred_defects, next_due_at_the_end_of_the_time_line) {
    scenarios::recurrent_next_due_at_the_end_of_the_time_line();
}

// schedule_recurrent_function_us(nullptr / {} / NULL, us) is refused (false),
// as upstream's std::function parameter makes it.
TEST(deferred_defects, esp8266_recurrent_null_is_refused) {
    const std::uint32_t before = kairos::esp8266_compat::global_scheduler.recurrent_overflows();
    EXPECT_FALSE(schedule_recurrent_function_us(nullptr, 1000));
    EXPECT_FALSE(schedule_recurrent_function_us({}, 1000));
    EXPECT_FALSE(schedule_recurrent_function_us(NULL, 1000));
    EXPECT_FALSE(schedule_recurrent_function_us(std::function<bool()>{}, 1000));
    bool (*null_fn)() = nullptr;
    EXPECT_FALSE(schedule_recurrent_function_us(null_fn, 1000));
    EXPECT_TRUE(schedule_recurrent_function_us([] { return false; }, 1000, nullptr));
    // Refusals are not overflows.
    EXPECT_EQ(kairos::esp8266_compat::global_scheduler.recurrent_overflows(), before);
    while (kairos::esp8266_compat::global_scheduler.recurrent_count() != 0) {
        run_scheduled_recurrent_functions();  // the one registered above returns false
    }
}

// compute_scheduled_recurrent_grain() is upstream's: the gcd of the
// registered periods in µs, rounded up to whole milliseconds (1 for a gcd up
// to 1 ms), 0 when nothing is registered or every period is 0.
TEST(deferred_defects, esp8266_recurrent_grain) {
    auto& g = kairos::esp8266_compat::global_scheduler;
    ASSERT_EQ(g.recurrent_count(), 0u);
    EXPECT_EQ(compute_scheduled_recurrent_grain(), 0u);
    bool stop = false;
    auto fn = [&stop] { return !stop; };
    ASSERT_TRUE(schedule_recurrent_function_us(fn, 0));
    EXPECT_EQ(compute_scheduled_recurrent_grain(), 0u);  // gcd(0) = 0: no grain
    ASSERT_TRUE(schedule_recurrent_function_us(fn, 30000));
    EXPECT_EQ(compute_scheduled_recurrent_grain(), 30u);  // gcd(0, 30000) = 30000 µs
    ASSERT_TRUE(schedule_recurrent_function_us(fn, 45000));
    EXPECT_EQ(compute_scheduled_recurrent_grain(), 15u);  // gcd 15000 µs
    ASSERT_TRUE(schedule_recurrent_function_us(fn, 45500));
    EXPECT_EQ(compute_scheduled_recurrent_grain(), 1u);  // gcd 500 µs: at least 1 ms
    stop = true;
    // Period 0 runs at once and removes itself; the others wait for their
    // periods, so cancel them through the native pool instead.
    run_scheduled_recurrent_functions();
    EXPECT_EQ(compute_scheduled_recurrent_grain(), 1u);
    while (g.recurrent_count() != 0) run_scheduled_recurrent_functions();
    EXPECT_EQ(compute_scheduled_recurrent_grain(), 0u);
    // gcd 1500 µs rounds up to 2 ms.
    stop = false;
    ASSERT_TRUE(schedule_recurrent_function_us(fn, 3000));
    ASSERT_TRUE(schedule_recurrent_function_us(fn, 4500));
    EXPECT_EQ(compute_scheduled_recurrent_grain(), 2u);
    stop = true;
    while (g.recurrent_count() != 0) run_scheduled_recurrent_functions();
}

}  // namespace

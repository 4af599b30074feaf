// SPDX-License-Identifier: MIT
// SCHEDULED_FN_MAX_COUNT is overridable (the same in every translation unit,
// Schedule.cpp included: CMakeLists.txt builds this test with 10 and 3); the
// capacity is rounded up to a power of two.

#include <gtest/gtest.h>

#include <Schedule.h>

TEST(esp8266_compat_config, capacities_follow_the_macros) {
    static_assert(kairos::esp8266_compat::scheduler::capacity == 16,
                  "10 rounds up to 16 slots");
    int ok = 0;
    while (schedule_function([] {})) ++ok;
    EXPECT_EQ(ok, 16);
    EXPECT_EQ(scheduled_function_overflows(), 1u);
    run_scheduled_functions();
    int rec = 0;
    while (schedule_recurrent_function_us([] { return true; }, 1000)) ++rec;
    EXPECT_EQ(rec, 3);
}

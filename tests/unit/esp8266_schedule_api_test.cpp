// SPDX-License-Identifier: MIT
// Schedule.h API that upstream code calls: schedule_function({}), (NULL)
// and (nullptr) are false; and callables returning a value (std::bind of a
// method returning bool, std::function<bool()>) are accepted by
// schedule_function and Ticker with the result discarded, as upstream's
// std::function<void()> parameters do. Ticks are awaited by count.
#include <gtest/gtest.h>

#include <Schedule.h>
#include <Ticker.h>
#include <kairos/inplace_function.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>

TEST(esp8266_schedule_api, schedule_function_of_nothing_is_false) {
    run_scheduled_functions();
    const std::uint32_t overflows = scheduled_function_overflows();
    EXPECT_FALSE(schedule_function({}));
    EXPECT_FALSE(schedule_function(NULL));
    EXPECT_FALSE(schedule_function(nullptr));
    EXPECT_FALSE(schedule_function(std::function<void()>{}));
    EXPECT_EQ(kairos::esp8266_compat::global_scheduler.pending(), 0u);
    EXPECT_EQ(scheduled_function_overflows(), overflows);  // refused, not overflowed
}

namespace {
struct counter {
    int n = 0;
    bool bump() { return ++n > 0; }
    int bump_by(int k) { return n += k; }
};
}  // namespace

TEST(esp8266_schedule_api, schedule_function_discards_a_result) {
    counter c;
    EXPECT_TRUE(schedule_function(std::bind(&counter::bump, &c)));
    EXPECT_TRUE(schedule_function(std::bind(&counter::bump_by, &c, 10)));
    const std::function<bool()> fb = [&c] { return c.bump(); };
    EXPECT_TRUE(schedule_function(fb));
    EXPECT_TRUE(schedule_function([&c] { return c.bump_by(100); }));
    run_scheduled_functions();
    EXPECT_EQ(c.n, 112);
}

TEST(esp8266_schedule_api, native_inplace_function_discards_a_result) {
    int n = 0;
    kairos::inplace_function<void()> f = [&n] { return ++n; };
    f();
    kairos::inplace_function<void(int)> g = [&n](int k) { return n += k; };
    g(5);
    EXPECT_EQ(n, 6);
}

TEST(esp8266_schedule_api, ticker_discards_a_result) {
    static std::atomic<int> direct{0};
    counter c;
    Ticker t;
    // relaxed: a count, read after the tick that wrote it
    t.once_ms(1, [] { return direct.fetch_add(1, std::memory_order_relaxed) + 1; });
    while (direct.load(std::memory_order_relaxed) == 0) {  // relaxed: as above
    }
    t.once_ms_scheduled(1, std::bind(&counter::bump, &c));
    const std::function<bool()> fb = [&c] { return c.bump(); };
    Ticker u;
    u.once_ms_scheduled(1, fb);
    while (kairos::esp8266_compat::global_scheduler.pending() < 2) {
    }
    run_scheduled_functions();
    EXPECT_EQ(c.n, 2);
}

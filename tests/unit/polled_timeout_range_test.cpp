// SPDX-License-Identifier: MIT
// The full range of 32-bit polled timeouts (kairos::polled_timeout): a
// one-shot of up to 2^32 - 2 ticks (49.7 days in milliseconds, as on the
// ESP8266) expires on time and stays expired, also when the poll that would
// have seen the expiry comes only after the counter passed start + 2^32.
// Driven by a fake time source; esp8266_polled_timeout_api_test covers
// oneShotMs.
#include <gtest/gtest.h>

#include <kairos/polled_timeout.hpp>

#include <cstdint>

namespace {

constexpr std::uint32_t thirty_days_ms = 30u * 24u * 3600u * 1000u;  // above 2^31

// fake_ms is a settable 32-bit millisecond source (native interface).
struct fake_ms {
    using time_type = std::uint32_t;
    static inline time_type value = 0;
    static time_type now() noexcept { return value; }
};

}  // namespace

TEST(polled_timeout_range, native_one_shot_thirty_days) {
    using one_shot = kairos::polled_timeout<false, fake_ms>;
    EXPECT_EQ(one_shot::time_max(), 0xFFFFFFFEu);
    fake_ms::value = 0xFFFF0000u;  // the counter wraps during the timeout
    one_shot o(thirty_days_ms);
    EXPECT_TRUE(o.can_expire());
    fake_ms::value += thirty_days_ms - 1;
    EXPECT_FALSE(o.expired());
    fake_ms::value += 1;
    EXPECT_TRUE(o.expired());
    fake_ms::value += 0x80000000u;  // now - start wraps past 2^32
    EXPECT_TRUE(o.expired());
}

TEST(polled_timeout_range, native_expiry_seen_after_a_late_poll) {
    using one_shot = kairos::polled_timeout<false, fake_ms>;
    fake_ms::value = 12345;
    one_shot o(one_shot::time_max());
    fake_ms::value += 0x80000000u;
    EXPECT_FALSE(o.expired());
    // The next poll comes after start + 2^32: now - start is small again,
    // but the timeout has run out.
    fake_ms::value += 0x80000000u + 5u;
    EXPECT_TRUE(o.expired());
    o.reset(10);
    EXPECT_FALSE(o.expired());
    fake_ms::value += 10;
    EXPECT_TRUE(o.expired());
}

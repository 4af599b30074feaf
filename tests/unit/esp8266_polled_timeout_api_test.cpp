// SPDX-License-Identifier: MIT
// PolledTimeout.h API that upstream code calls: TimePolicy::TimeUnit with
// TimeSourceMillis / TimeSourceCycles and its conversions, rangeCompensate,
// resetAndSetExpired(), and the protected members and constructor derived
// classes use (as ESP8266WiFiMesh's ExpiringTimeTracker does); and
// oneShotMs's range, (2^32 - 2) ms as upstream, with 30 days expiring on
// time across a counter wrap. Fake time sources only.
#include <gtest/gtest.h>

#include <Arduino.h>
#include <PolledTimeout.h>

#include <cstdint>
#include <type_traits>

namespace {
// fake_ticks<rate, max> is a settable source in the ESP8266 time-source
// interface, ticking `rate` times per second (at most `max`).
template <std::uint32_t rate, std::uint32_t max = rate>
struct fake_ticks {
    using timeType = std::uint32_t;
    static inline timeType value = 0;
    static timeType time() { return value; }
    static constexpr timeType ticksPerSecond = rate;
    static constexpr timeType ticksPerSecondMax = max;
};
using fake_cycles = fake_ticks<80000000, 160000000>;
using fake_millis = fake_ticks<1000>;
constexpr std::uint32_t thirty_days_ms = 30u * 24u * 3600u * 1000u;  // above 2^31
using namespace esp8266::polledTimeout;
using millis_policy = TimePolicy::TimeUnit<TimePolicy::TimeSourceMillis, 1000>;
using fake_us_policy = TimePolicy::TimeUnit<fake_cycles, 1000000>;
using one_shot_fake_us = timeoutTemplate<false, YieldPolicy::DoNothing, fake_us_policy>;
using periodic_fake_us = timeoutTemplate<true, YieldPolicy::DoNothing, fake_us_policy>;

// tracker derives the way ESP8266WiFiMesh's ExpiringTimeTracker does:
// writes the protected members and polls through expiredOneShot().
class tracker : private timeoutTemplate<false, YieldPolicy::DoNothing, fake_us_policy> {
public:
    tracker(std::uint32_t us, std::uint32_t created) : timeoutTemplate(0) {
        set(us);
        _start = created;
    }
    void set(std::uint32_t us) {
        _timeout = fake_us_policy::toTimeTypeUnit(us);
        _neverExpires = us > timeMax();
    }
    bool expired() const { return expiredOneShot(); }
    void restart() { timeoutTemplate::reset(); }
    using timeoutTemplate::getTimeout;
};
}  // namespace

TEST(esp8266_polled_timeout_api, time_policies_as_upstream) {
    static_assert(std::is_same_v<TimePolicy::TimeSourceMillis::timeType, decltype(millis())>);
    static_assert(std::is_same_v<TimePolicy::TimeSourceCycles::timeType, std::uint32_t>);
    static_assert(std::is_same_v<TimePolicy::TimeMillis, millis_policy>);
    // The ESP8266 cycle-counter units (80 MHz, 160 MHz max).
    using cyc_ms = TimePolicy::TimeUnit<TimePolicy::TimeSourceCycles, 1000>;
    using cyc_us = TimePolicy::TimeUnit<TimePolicy::TimeSourceCycles, 1000000>;
    using cyc_ns = TimePolicy::TimeUnit<TimePolicy::TimeSourceCycles, 1000000000>;
    EXPECT_EQ(cyc_ms::timeMax, 26843u);
    EXPECT_EQ(cyc_us::timeMax, 26843545u);
    EXPECT_EQ(cyc_ns::timeMax, 1073741823u);
    EXPECT_EQ(cyc_ms::rangeCompensate, 1u);
    EXPECT_EQ(cyc_ns::rangeCompensate, 25u);
    EXPECT_EQ(cyc_ns::toTimeTypeUnit(1000000u), 80000u);  // 1 ms at 80 MHz
    EXPECT_EQ(cyc_ns::toUserUnit(80000u), 1000000u);
    EXPECT_EQ(cyc_us::toUserUnit(cyc_us::toTimeTypeUnit(1234u)), 1234u);
    EXPECT_EQ(periodicMs::rangeCompensate, 1u);
    EXPECT_EQ(oneShotMs::rangeCompensate, 1u);
    (void)periodicFastNs::rangeCompensate;
    (void)TimePolicy::TimeSourceCycles::time();
    const std::uint32_t m = millis();
    EXPECT_LE(TimePolicy::TimeSourceMillis::time() - m, 1000u);
    EXPECT_EQ(TimePolicy::TimeMillis::toUserUnit(77u), 77u);
}

TEST(esp8266_polled_timeout_api, reset_and_set_expired) {
    fake_cycles::value = 1000;
    one_shot_fake_us o(100);  // 8000 cycles
    EXPECT_EQ(o.getTimeout(), 100u);
    EXPECT_FALSE(o.expired());
    o.resetAndSetExpired();
    EXPECT_TRUE(o.expired());
    o.resetAndSetExpired(50);
    EXPECT_EQ(o.getTimeout(), 50u);
    EXPECT_TRUE(static_cast<bool>(o));
    o.reset();
    EXPECT_FALSE(static_cast<bool>(o));
    fake_cycles::value += 50 * 80;
    EXPECT_TRUE(static_cast<bool>(o));

    periodic_fake_us p(10);  // 800 cycles
    p.resetAndSetExpired();
    EXPECT_TRUE(p.expired());   // at once
    EXPECT_FALSE(p.expired());  // then on the period
    fake_cycles::value += 800;
    EXPECT_TRUE(p.expired());
    EXPECT_FALSE(p.expired());
}

TEST(esp8266_polled_timeout_api, derived_class_uses_protected_members) {
    fake_cycles::value = 0xFFFFF000u;
    tracker t(100, fake_cycles::value - 40 * 80);  // created 40 µs ago
    EXPECT_EQ(t.getTimeout(), 100u);
    fake_cycles::value += 59 * 80;
    EXPECT_FALSE(t.expired());
    fake_cycles::value += 80;
    EXPECT_TRUE(t.expired());
    t.set(200);  // a longer duration on the same start: no longer expired
    EXPECT_FALSE(t.expired());
    fake_cycles::value += 100 * 80;
    EXPECT_TRUE(t.expired());
    t.restart();
    EXPECT_FALSE(t.expired());
    t.set(one_shot_fake_us::neverExpires);
    fake_cycles::value += 0x10000000u;
    EXPECT_FALSE(t.expired());
}

TEST(esp8266_polled_timeout_api, never_expires_as_upstream) {
    fake_cycles::value = 5;
    one_shot_fake_us o(10);
    o.resetToNeverExpires();
    EXPECT_FALSE(o.canExpire());
    EXPECT_TRUE(o.canWait());
    fake_cycles::value += 0x40000000u;
    EXPECT_FALSE(o.expired());
    o.reset(0);
    EXPECT_TRUE(o.canExpire());
    EXPECT_FALSE(o.canWait());
    EXPECT_TRUE(o.expired());
}

// ---- the range of oneShotMs: (2^32 - 2) ms, as upstream

TEST(esp8266_polled_timeout_api, one_shot_ms_has_the_esp8266_range) {
    using esp8266::polledTimeout::oneShotMs;
    using esp8266::polledTimeout::periodicMs;
    EXPECT_EQ(oneShotMs::timeMax(), 0xFFFFFFFEu);  // (2^32 - 2) ms, 49.7 days
    EXPECT_EQ(periodicMs::timeMax(), 0xFFFFFFFEu);
    oneShotMs o(thirty_days_ms);
    EXPECT_TRUE(o.canExpire());
    EXPECT_EQ(o.getTimeout(), thirty_days_ms);
    EXPECT_FALSE(o.expired());
}

TEST(esp8266_polled_timeout_api, one_shot_ms_thirty_days_on_a_fake_millis) {
    using namespace esp8266::polledTimeout;
    using policy = TimePolicy::TimeUnit<fake_millis, 1000>;
    using one_shot = timeoutTemplate<false, YieldPolicy::DoNothing, policy>;
    EXPECT_EQ(one_shot::timeMax(), 0xFFFFFFFEu);
    fake_millis::value = 0xFFFFFF00u;
    one_shot o(thirty_days_ms);
    fake_millis::value += thirty_days_ms - 1;
    EXPECT_FALSE(o.expired());
    EXPECT_FALSE(static_cast<bool>(o));
    fake_millis::value += 1;
    EXPECT_TRUE(o.expired());
    fake_millis::value += 0xC0000000u;  // past start + 2^32: still expired
    EXPECT_TRUE(o.expired());
    // A poll that comes only after start + 2^32 still sees the expiry.
    o.reset(0xFFFFFFFEu);
    fake_millis::value += 0x80000000u;
    EXPECT_FALSE(o.expired());
    fake_millis::value += 0x80000001u;
    EXPECT_TRUE(o.expired());
}

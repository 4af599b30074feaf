// SPDX-License-Identifier: MIT
// The re-arm time of a recurrent function after a stall: deferred computes
// "the first point of the phase after now" without a 64-bit division
// (doubling/halving strides of whole periods). Checked here against the
// plain division formula for small and huge periods and stalls of 0 to
// ~2^40 periods, including stalls that end exactly on a phase point.
#include <kairos/deferred.hpp>

#include <gtest/gtest.h>

#include <cstdint>

#include "deferred_scenarios.hpp"

namespace {

// expected(due, period, now): the smallest due + k * period > now, k >= 1.
std::uint64_t expected(std::uint64_t due, std::uint64_t period, std::uint64_t now) {
    return due + ((now - due) / period + 1) * period;
}

TEST(deferred_next_due, matches_division_after_any_stall) {
    const std::uint64_t periods[] = {1, 2, 3, 7, 100, 999'983, (std::uint64_t{1} << 32) + 5,
                                     (std::uint64_t{1} << 40) - 1};
    const std::uint64_t start = 0xFFFF'FFFF'FFFF'0000ull;  // crosses the 64-bit wrap too
    int cases = 0;
    for (std::uint64_t period : periods) {
        for (std::uint64_t k : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{2},
                                std::uint64_t{3}, std::uint64_t{1000}, std::uint64_t{1} << 20,
                                (std::uint64_t{1} << 20) + 1}) {
            for (std::uint64_t extra : {std::uint64_t{0}, std::uint64_t{1}, period - 1}) {
                if (period > (std::uint64_t{1} << 32) && k > 1000) continue;  // keep < 2^62
                scenarios::fake_clock c;
                c.now = start;
                kairos::deferred<2, 1> d(c.source());
                auto h = d.schedule_recurrent([] { return true; }, period);
                ASSERT_TRUE(h);
                const std::uint64_t due = start + period;
                c.now = due + k * period + extra;  // stalled k periods (and extra µs)
                ASSERT_EQ(d.run_recurrent(), 1u);
                std::uint64_t next = 0;
                ASSERT_TRUE(d.next_due(next));
                EXPECT_EQ(next, expected(due, period, c.now))
                    << "period " << period << " k " << k << " extra " << extra;
                ++cases;
            }
        }
    }
    EXPECT_EQ(cases, 6 * 7 * 3 + 2 * 5 * 3);
}

constexpr std::uint64_t periods_in(std::uint64_t gap, std::uint64_t period) {
    std::uint64_t span = 0;
    const std::uint64_t k = kairos::whole_periods(gap, period, span);
    return span == k * period ? k : ~std::uint64_t{0};
}
static_assert(periods_in(0, 7) == 0);
static_assert(periods_in(6, 7) == 0);
static_assert(periods_in(7, 7) == 1);
static_assert(periods_in(29, 7) == 4);
static_assert(periods_in((std::uint64_t{1} << 63) - 1, 1) == (std::uint64_t{1} << 63) - 1);

// whole_periods() itself (also the MCU tickers' overrun count) against `/`.
TEST(time_whole_periods, matches_division) {
    std::uint64_t x = 0x9E3779B97F4A7C15ull;  // xorshift64
    auto next = [&x] {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        return x;
    };
    for (int i = 0; i < 200000; ++i) {
        const std::uint64_t gap = next() >> (1 + i % 63);           // < 2^63
        const std::uint64_t period = (next() >> (i % 64)) | 1u;     // > 0, all magnitudes
        std::uint64_t span = 0;
        ASSERT_EQ(kairos::whole_periods(gap, period, span), gap / period) << gap << " / " << period;
        ASSERT_EQ(span, gap / period * period) << gap << " / " << period;
    }
}

}  // namespace

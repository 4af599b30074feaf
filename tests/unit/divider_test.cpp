// SPDX-License-Identifier: MIT
// div_u64(x, divider16): the run-time divisor MCU ports use to turn cycles
// of a clock set at run time (port::set_cpu_hz()) into microseconds. Both
// 32-bit paths (division instruction, reciprocal) are checked on the host.
#include <kairos/bits.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <random>

namespace {

using kairos::divider16;
using kairos::make_divider16;

static_assert(kairos::div_u64(~std::uint64_t{0}, make_divider16(25)) == ~std::uint64_t{0} / 25);
static_assert(kairos::bits::sw::div32(0xFFFFFFFFu, make_divider16(1)) == 0xFFFFFFFFu);

TEST(divider16, reciprocal_path_exact_for_every_divisor_at_edges) {
    const std::uint32_t ns[] = {0u, 1u, 2u, 0xFFFFu, 0x10000u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFEu, 0xFFFFFFFFu};
    for (std::uint32_t d = 1; d < (1u << 16); ++d) {
        const divider16 v = make_divider16(d);
        for (std::uint32_t n : ns) {
            ASSERT_EQ(kairos::bits::sw::div32(n, v), n / d) << n << " / " << d;
            const std::uint32_t m = n - n % d;  // the multiple of d at or below n
            ASSERT_EQ(kairos::bits::sw::div32(m, v), m / d) << m << " / " << d;
            if (m != 0) {
                ASSERT_EQ(kairos::bits::sw::div32(m - 1, v), m / d - 1) << m - 1 << " / " << d;
            }
        }
    }
}

TEST(divider16, power_of_two_shift) {
    for (std::uint32_t k = 0; k < 16; ++k) EXPECT_EQ(make_divider16(1u << k).shift, k);
    EXPECT_EQ(make_divider16(25).shift, 32u);
    EXPECT_EQ(make_divider16(48).shift, 32u);
    const std::uint64_t xs[] = {0, 1, 0xFFFFFFFFu, 0x100000000u, 0x123456789ABCDEF0u, ~std::uint64_t{0}};
    for (std::uint32_t k = 0; k < 32; ++k) {
        for (std::uint64_t x : xs) ASSERT_EQ(kairos::bits::sw::shift_u64(x, k), x >> k) << x << " >> " << k;
    }
}

TEST(divider16, div_u64_matches_division_for_core_clocks) {
    std::mt19937_64 rng(12345);
    const std::uint32_t mhz[] = {1, 8, 16, 25, 40, 48, 64, 72, 80, 120, 125, 160, 168, 180, 216, 480, 65535};
    for (std::uint32_t d : mhz) {
        const divider16 v = make_divider16(d);
        for (int i = 0; i < 20000; ++i) {
            const std::uint64_t x = rng() >> (i % 64);
            ASSERT_EQ(kairos::div_u64(x, v), x / d) << x << " / " << d;
        }
        ASSERT_EQ(kairos::div_u64(~std::uint64_t{0}, v), ~std::uint64_t{0} / d);
    }
}

}  // namespace

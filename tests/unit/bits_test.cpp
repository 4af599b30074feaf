// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include "bits_scenarios.hpp"

// Compile-time: both paths are constexpr.
static_assert(kairos::bits::sw::msb(std::uint32_t{1} << 31) == 31);
static_assert(kairos::bits::hw::lsb(std::uint64_t{1} << 40) == 40);
static_assert(kairos::popcount(std::uint64_t{0xF0F0}) == 8);
static_assert(kairos::div_u64<25>(~std::uint64_t{0}) == ~std::uint64_t{0} / 25);
static_assert(kairos::div_u64<65535>((std::uint64_t{1} << 48) - 1) == ((std::uint64_t{1} << 48) - 1) / 65535);

TEST(bits, exhaustive16) { scenarios::bits_exhaustive16(); }
TEST(bits, random) { scenarios::bits_random(200000); }
TEST(bits, edges) { scenarios::bits_edges(); }
TEST(bits, div_u64) { scenarios::bits_div_u64(); }

TEST(bits, selected_path_matches_platform_fact) {
    // On this host the unqualified functions must be the hw path iff CLZ is
    // an instruction; both give equal answers, so compare what is observable:
    // the order test_and_clear visits bits in.
    std::uint32_t w = 0x81u;
    const unsigned first = kairos::test_and_clear(w);
    EXPECT_EQ(first, KAIROS_HAS_CLZ ? 7u : 0u);
}

#if KAIROS_ASSERTS
TEST(bitsDeathTest, zero_is_a_precondition_violation) {
    volatile std::uint32_t zero = 0;
    EXPECT_DEATH((void)kairos::bits::sw::msb(static_cast<std::uint32_t>(zero)), "x != 0");
}
#endif

// SPDX-License-Identifier: MIT
// The mpsc_ring producer path for cores without compare-and-swap
// (KAIROS_HAS_CAS == 0: ARMv6-M, lx106), compiled and run on the host: the
// claim runs inside kairos::port::irq_disable()/irq_restore(). Single
// context only: the host port's mask is virtual, so this checks the
// fallback's logic (claim, batch claim, limits, counters), while the
// target issue runs it under QEMU with real interrupts. This executable
// defines the macro before any kairos header; its ring instantiations are
// its own (no other translation unit uses these element types and sizes).
#define KAIROS_HAS_CAS 0

#include <gtest/gtest.h>

#include <kairos/circular_queue.hpp>

#include "ring_scenarios.hpp"

namespace {

static_assert(KAIROS_HAS_CAS == 0);

using scenarios::mpsc;

using nocas_variants = ::testing::Types<mpsc<2, std::uint32_t>, mpsc<32, std::uint32_t, 0xFFFFFFF0u>>;

template <class V>
struct mpsc_nocas : ::testing::Test {};
TYPED_TEST_SUITE(mpsc_nocas, nocas_variants);

TYPED_TEST(mpsc_nocas, all_scenarios) { scenarios::ring_all<TypeParam>(); }

TEST(mpsc_nocas, circular_queue_mp_exact_capacity) {
    kairos::circular_queue_mp<int> q(5);
    int in[7] = {0, 1, 2, 3, 4, 5, 6};
    EXPECT_EQ(q.push_n(in, 7), 5u);
    EXPECT_FALSE(q.push(9));
    EXPECT_EQ(q.failed_pushes(), 2u);
    int v;
    ASSERT_TRUE(q.try_pop(v));
    EXPECT_EQ(v, 0);
    EXPECT_TRUE(q.push(9));
    EXPECT_EQ(q.available(), 5u);
}

}  // namespace

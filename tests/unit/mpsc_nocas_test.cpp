// SPDX-License-Identifier: MIT
// The mpsc_ring producer path for cores without compare-and-swap (the
// default where KAIROS_HAS_CAS == 0: ARMv6-M, lx106), selected with the
// kairos::rmw_masked<> policy and run on the host next to the CAS path: the
// claim runs inside kairos::port::irq_disable()/irq_restore(). Single
// context only: the host port's mask is virtual, so this checks the
// fallback's logic (claim, batch claim, limits, counters), while the
// target tests run it under QEMU with real interrupts and tests/model
// model-checks it with concurrent producers.
#include <gtest/gtest.h>

#include <kairos/irq_section.hpp>

#include <kairos/circular_queue.hpp>

#include "ring_scenarios.hpp"

namespace {

template <class T, std::size_t N, class Index>
using masked_ring = kairos::mpsc_ring<T, N, Index, kairos::rmw_masked<>>;
template <std::size_t N, class Index, Index Start = 0>
using mpsc = scenarios::variant<masked_ring, N, Index, Start>;
using masked_queue = kairos::circular_queue_mp<int, void, kairos::rmw_masked<>>;

static_assert(!mpsc<2, std::uint32_t>::ring<int>::rmw_policy::uses_cas);
static_assert(KAIROS_HAS_CAS == 0 ||
              std::is_same_v<kairos::mpsc_ring<int, 2>::rmw_policy, kairos::rmw_cas>);

using nocas_variants = ::testing::Types<mpsc<2, std::uint32_t>, mpsc<32, std::uint32_t, 0xFFFFFFF0u>>;

template <class V>
struct mpsc_nocas : ::testing::Test {};
TYPED_TEST_SUITE(mpsc_nocas, nocas_variants);

TYPED_TEST(mpsc_nocas, all_scenarios) { scenarios::ring_all<TypeParam>(); }

TEST(mpsc_nocas, circular_queue_mp_exact_capacity) {
    masked_queue q(5);
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

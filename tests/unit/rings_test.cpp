// SPDX-License-Identifier: MIT
// spsc_ring and mpsc_ring: the portable scenarios (tests/scenarios/
// ring_scenarios.hpp) typed over every ring variant, capacity edge and index
// width, plus compile-time properties and misuse checks.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "ring_scenarios.hpp"

namespace {

using scenarios::mpsc;
using scenarios::spsc;

// Capacity 1 (2 for MPSC: Vyukov's minimum), small, and the largest the index allows; 8/16/32/64-bit
// indices; wide indices start just below the wrap so every run crosses it.
using ring_variants = ::testing::Types<
    spsc<1, std::uint8_t>, spsc<8, std::uint8_t>, spsc<128, std::uint8_t>,
    spsc<16, std::uint16_t, 0xFFF0u>, spsc<64, std::uint32_t, 0xFFFFFFC0u>,
    spsc<32, std::uint64_t, 0xFFFFFFFFFFFFFFF0ull>, spsc<4, std::size_t>,
    mpsc<2, std::uint32_t>, mpsc<8, std::uint32_t, 0xFFFFFFF8u>,
    mpsc<64, std::uint32_t, 0xFFFFFFC3u>, mpsc<16, std::uint64_t, 0xFFFFFFFFFFFFFFF5ull>>;

template <class V>
struct ring : ::testing::Test {};
TYPED_TEST_SUITE(ring, ring_variants);

TYPED_TEST(ring, fill_drain) { scenarios::ring_fill_drain<TypeParam>(); }
TYPED_TEST(ring, wraparound) { scenarios::ring_wraparound<TypeParam>(); }
TYPED_TEST(ring, counted_elements) { scenarios::ring_counted<TypeParam>(); }
TYPED_TEST(ring, move_only) { scenarios::ring_move_only<TypeParam>(); }
TYPED_TEST(ring, front_pop) { scenarios::ring_front_pop<TypeParam>(); }
TYPED_TEST(ring, batch_across_wrap) { scenarios::ring_batch<TypeParam>(); }
TYPED_TEST(ring, consume_requeue) { scenarios::ring_consume_requeue<TypeParam>(); }

// ---- compile-time properties ------------------------------------------------

template <class R>
constexpr bool concurrent_object = !std::is_copy_constructible_v<R> &&
                                   !std::is_move_constructible_v<R> &&
                                   !std::is_copy_assignable_v<R> && !std::is_move_assignable_v<R>;
static_assert(concurrent_object<kairos::spsc_ring<int, 8>>);
static_assert(concurrent_object<kairos::mpsc_ring<int, 8>>);
static_assert(kairos::spsc_ring<int, 256>::capacity() == 256);
static_assert(kairos::mpsc_ring<int, 4>::capacity() == 4);
static_assert(std::is_same_v<kairos::spsc_ring<int, 8>::index_type, std::uint32_t>);

// The producer's and the consumer's indices never share a cache line, and the
// slots do not share one with either.
template <class R>
void check_layout() {
    R r;
    auto line = [](const void* p) {
        return reinterpret_cast<std::uintptr_t>(p) / kairos::cache_line;
    };
    // front() of an empty ring is null; push one to get a slot address.
    ASSERT_TRUE(r.try_push(1));
    const void* slot = r.front();
    const auto* base = reinterpret_cast<const unsigned char*>(&r);
    // The object starts on a line; head is the first member, tail follows
    // after the producer line(s).
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(base) % kairos::cache_line, 0u);
    EXPECT_GE(sizeof(R), 3 * kairos::cache_line);
    EXPECT_NE(line(base), line(slot));
    EXPECT_NE(line(base + kairos::cache_line), line(slot));
}
TEST(ring_layout, spsc) { check_layout<kairos::spsc_ring<int, 16>>(); }
TEST(ring_layout, mpsc) { check_layout<kairos::mpsc_ring<int, 16>>(); }

// pop() on an empty ring is a precondition violation caught by KAIROS_ASSERT.
#if KAIROS_ASSERTS
TEST(ringDeathTest, pop_on_empty_spsc) {
    kairos::spsc_ring<int, 4> r;
    EXPECT_DEATH(r.pop(), "any");
}
TEST(ringDeathTest, pop_on_empty_mpsc) {
    kairos::mpsc_ring<int, 4> r;
    EXPECT_DEATH(r.pop(), "any");
}
#endif

}  // namespace

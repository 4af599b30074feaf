// SPDX-License-Identifier: MIT
// spsc_slot_ring: single-context behaviour over capacity edges and index
// widths (wide indices start just below the wrap), element lifetimes, and
// a two-thread stream checked for loss, duplication and order.
#include <gtest/gtest.h>

#include <kairos/spsc_slot_ring.hpp>

#include <cstddef>
#include <cstdint>
#include <thread>
#include <type_traits>

#include "backoff.hpp"
#include "ktest.hpp"
#include "ring_scenarios.hpp"

namespace {

template <std::size_t N, class Index, Index Start = 0>
struct slot_variant {
    template <class T>
    using ring = kairos::spsc_slot_ring<T, N, Index>;
    static constexpr std::size_t n = N;
    static constexpr Index start = Start;
};

using variants = ::testing::Types<
    slot_variant<2, std::uint8_t>, slot_variant<8, std::uint8_t, 250>,
    slot_variant<128, std::uint8_t>, slot_variant<16, std::uint16_t, 0xFFF3u>,
    slot_variant<64, std::uint32_t, 0xFFFFFFC5u>,
    slot_variant<32, std::uint64_t, 0xFFFFFFFFFFFFFFF0ull>>;

template <class V>
struct slot_ring : ::testing::Test {};
TYPED_TEST_SUITE(slot_ring, variants);

// Exactly n fit, the next push fails and is counted, FIFO out, then empty.
TYPED_TEST(slot_ring, fill_drain) {
    using V = TypeParam;
    typename V::template ring<std::uint32_t> r(V::start);
    EXPECT_TRUE(r.empty());
    for (std::uint32_t i = 0; i < V::n; ++i) ASSERT_TRUE(r.try_push(i));
    EXPECT_FALSE(r.try_push(std::uint32_t{99}));
    EXPECT_FALSE(r.try_emplace(99u));
    EXPECT_EQ(r.failed_pushes(), 2u);
    std::uint32_t v = 0;
    for (std::uint32_t i = 0; i < V::n; ++i) {
        ASSERT_TRUE(r.try_pop(v));
        EXPECT_EQ(v, i);
    }
    EXPECT_FALSE(r.try_pop(v));
    EXPECT_TRUE(r.empty());
}

// Random bursts for many times the 8-bit range, or across a wide index's
// wrap: pushes succeed exactly while fewer than n are queued, pops exactly
// while any are, in order.
TYPED_TEST(slot_ring, wraparound) {
    using V = TypeParam;
    typename V::template ring<std::uint32_t> r(V::start);
    ktest::rng g(7);
    std::uint32_t in = 0, out = 0;
    for (int step = 0; step < 5000; ++step) {
        const auto pushes = static_cast<std::uint32_t>(g.next32() % (V::n + 1));
        for (std::uint32_t i = 0; i < pushes; ++i) {
            const bool fits = in - out < V::n;
            ASSERT_EQ(r.try_push(in), fits);
            if (fits) ++in;
        }
        const auto pops = static_cast<std::uint32_t>(g.next32() % (V::n + 1));
        for (std::uint32_t i = 0; i < pops; ++i) {
            std::uint32_t v = ~0u;
            const bool any = in != out;
            ASSERT_EQ(r.try_pop(v), any);
            if (any) {
                ASSERT_EQ(v, out++);
            }
        }
    }
}

using scenarios::counted;
using scenarios::move_only;

// The ring builds only what it is given, destroys what it pops, and its
// destructor destroys what is left.
TYPED_TEST(slot_ring, element_lifetimes) {
    using V = TypeParam;
    const int before = counted::live();
    {
        typename V::template ring<counted> r(V::start);
        EXPECT_EQ(counted::live(), before);
        for (std::uint32_t i = 0; i < V::n; ++i) ASSERT_TRUE(r.try_emplace(i));
        EXPECT_EQ(counted::live(), before + static_cast<int>(V::n));
        counted out(0);
        ASSERT_TRUE(r.try_pop(out));
        EXPECT_EQ(out.v, 0u);
        EXPECT_EQ(counted::live(), before + static_cast<int>(V::n));  // n - 1 queued + out
    }
    EXPECT_EQ(counted::live(), before);
}

// front()/pop() is zero-copy; consume() stops at max and at empty.
TYPED_TEST(slot_ring, front_pop_consume) {
    using V = TypeParam;
    typename V::template ring<std::uint32_t> r(V::start);
    EXPECT_EQ(r.front(), nullptr);
    for (std::uint32_t i = 0; i < V::n; ++i) ASSERT_TRUE(r.try_push(i + 10));
    ASSERT_NE(r.front(), nullptr);
    EXPECT_EQ(*r.front(), 10u);
    r.pop();
    std::uint32_t next = 11;
    EXPECT_EQ(r.consume([&](std::uint32_t&& v) { EXPECT_EQ(v, next++); }, 1), 1u);
    EXPECT_EQ(r.consume([&](std::uint32_t&& v) { EXPECT_EQ(v, next++); }), V::n - 2);
    EXPECT_EQ(next, 10 + V::n);
    EXPECT_TRUE(r.empty());
    ASSERT_TRUE(r.try_push(1u));  // the freed slots are usable again
}

TEST(slot_ring_types, move_only_elements) {
    kairos::spsc_slot_ring<move_only, 4> r;
    move_only a(5);
    ASSERT_TRUE(r.try_push(std::move(a)));
    EXPECT_EQ(a.id, 0u);
    move_only b(0);
    ASSERT_TRUE(r.try_pop(b));
    EXPECT_EQ(b.id, 5u);
}

static_assert(!std::is_copy_constructible_v<kairos::spsc_slot_ring<int, 8>>);
static_assert(!std::is_move_constructible_v<kairos::spsc_slot_ring<int, 8>>);
static_assert(kairos::spsc_slot_ring<int, 64>::capacity() == 64);

// pop() on an empty ring is a precondition violation caught by
// KAIROS_ASSERT; with assertions off it does nothing.
#if KAIROS_ASSERTS
TEST(slot_ringDeathTest, pop_on_empty) {
    kairos::spsc_slot_ring<int, 4> r;
    EXPECT_DEATH(r.pop(), "nullptr");
}
#else
TEST(slot_ring_types, pop_on_empty_does_nothing) {
    kairos::spsc_slot_ring<int, 4> r;
    r.pop();
    ASSERT_TRUE(r.try_push(7));
    int v = 0;
    ASSERT_TRUE(r.try_pop(v));
    EXPECT_EQ(v, 7);
    EXPECT_TRUE(r.empty());
}
#endif

// Two threads: a stream of 10^6 sequence numbers through a small ring with
// an 8-bit index (wrapping constantly) arrives complete, unduplicated and
// in order, mixing try_pop, front/pop and consume on the consumer side.
TEST(slot_ring_stress, two_threads_in_order) {
    static kairos::spsc_slot_ring<std::uint64_t, 16, std::uint8_t> r;
    constexpr std::uint64_t n = 1'000'000;
    std::thread producer([] {
        ktest::backoff<64> wait;
        for (std::uint64_t i = 0; i < n;) {
            if (r.try_push(i)) {
                ++i;
            } else {
                wait();
            }
        }
    });
    std::uint64_t next = 0, errors = 0;
    auto see = [&](std::uint64_t v) {
        if (v != next) ++errors;  // lost, duplicated or reordered
        next = v + 1;
    };
    ktest::backoff<64> wait;
    while (next < n) {
        std::size_t k = 0;
        std::uint64_t v = 0;
        if (next % 3 == 0 && r.try_pop(v)) {
            see(v);
            k = 1;
        } else if (next % 3 == 1) {
            if (const std::uint64_t* f = r.front()) {
                see(*f);
                r.pop();
                k = 1;
            }
        } else {
            k = r.consume([&](std::uint64_t&& x) { see(x); }, 5);
        }
        if (k == 0) wait();
    }
    producer.join();
    EXPECT_EQ(errors, 0u);
    EXPECT_EQ(next, n);
    EXPECT_TRUE(r.empty());
}

}  // namespace

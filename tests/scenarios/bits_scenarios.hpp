// SPDX-License-Identifier: MIT
// Portable bits.hpp scenarios: both implementations (hw builtins, sw de
// Bruijn) against a naive reference, exhaustively over 16-bit values and on
// random 32/64-bit words.
#pragma once

#include <kairos/bits.hpp>

#include "ktest.hpp"

namespace scenarios {

template <class W>
constexpr unsigned naive_msb(W x) {
    unsigned i = 0;
    while (x >>= 1) ++i;
    return i;
}
template <class W>
constexpr unsigned naive_lsb(W x) {
    unsigned i = 0;
    while (!(x & 1)) {
        x >>= 1;
        ++i;
    }
    return i;
}
template <class W>
constexpr unsigned naive_popcount(W x) {
    unsigned n = 0;
    for (; x; x >>= 1) n += static_cast<unsigned>(x & 1);
    return n;
}

// check_word(x) compares every operation of both paths on one word.
template <class W>
void check_word(W x) {
    namespace hw = kairos::bits::hw;
    namespace sw = kairos::bits::sw;
    KT_CHECK_EQ(hw::popcount(x), naive_popcount(x));
    KT_CHECK_EQ(sw::popcount(x), naive_popcount(x));
    KT_CHECK_EQ(kairos::popcount(x), naive_popcount(x));
    if (x == 0) return;
    KT_CHECK_EQ(hw::msb(x), naive_msb(x));
    KT_CHECK_EQ(sw::msb(x), naive_msb(x));
    KT_CHECK_EQ(kairos::msb(x), naive_msb(x));
    KT_CHECK_EQ(hw::lsb(x), naive_lsb(x));
    KT_CHECK_EQ(sw::lsb(x), naive_lsb(x));
    KT_CHECK_EQ(kairos::lsb(x), naive_lsb(x));
    if constexpr (sizeof(W) == 4) {
        KT_CHECK_EQ(sw::lsb_times<4>(x), naive_lsb(x) * 4);
        KT_CHECK_EQ(sw::lsb_times<8>(x), naive_lsb(x) * 8);
    }

    // test_and_clear visits every set bit exactly once, in either order.
    W hw_left = x, sw_left = x, any_left = x, seen_hw = 0, seen_sw = 0, seen_any = 0;
    while (hw_left) {
        const W b = W{1} << hw::test_and_clear(hw_left);
        KT_CHECK((x & b) != 0 && (seen_hw & b) == 0);
        seen_hw |= b;
    }
    while (sw_left) {
        const W b = W{1} << sw::test_and_clear(sw_left);
        KT_CHECK((x & b) != 0 && (seen_sw & b) == 0);
        seen_sw |= b;
    }
    while (any_left) {
        const W b = W{1} << kairos::test_and_clear(any_left);
        KT_CHECK((x & b) != 0 && (seen_any & b) == 0);
        seen_any |= b;
    }
    KT_CHECK(seen_hw == x && seen_sw == x && seen_any == x);
}

// bits_exhaustive16() checks every 16-bit value, placed low and high in the
// 32- and 64-bit words.
inline void bits_exhaustive16() {
    for (std::uint32_t v = 0; v <= 0xFFFFu; ++v) {
        check_word<std::uint32_t>(v);
        check_word<std::uint32_t>(v << 16);
        check_word<std::uint64_t>(v);
        check_word<std::uint64_t>(std::uint64_t{v} << 48);
    }
}

// bits_random(n) checks n random words of each width, with random sparsity.
inline void bits_random(unsigned n) {
    ktest::rng r(0x6b6169726f73ull);
    for (unsigned i = 0; i < n; ++i) {
        const std::uint64_t a = r.next(), b = r.next();
        check_word<std::uint32_t>(static_cast<std::uint32_t>(a));
        check_word<std::uint32_t>(static_cast<std::uint32_t>(a & b));
        check_word<std::uint64_t>(a);
        check_word<std::uint64_t>(a & b & r.next());
    }
}

// bits_edges() checks single bits and all-ones.
inline void bits_edges() {
    for (unsigned i = 0; i < 32; ++i) check_word<std::uint32_t>(std::uint32_t{1} << i);
    for (unsigned i = 0; i < 64; ++i) check_word<std::uint64_t>(std::uint64_t{1} << i);
    check_word<std::uint32_t>(~std::uint32_t{0});
    check_word<std::uint64_t>(~std::uint64_t{0});
}

// bits_div_u64() checks div_u64<D> (the default, hw and sw 32-bit steps),
// sw::div32 and mulhi32 against the compiler's division and multiply
// (libgcc on the targets, an independent implementation) for the divisors
// the ports use and the extremes, on edge and random operands.
template <std::uint32_t D>
void check_div(std::uint64_t x) {
    KT_CHECK_EQ(kairos::div_u64<D>(x), x / D);
    KT_CHECK_EQ((kairos::div_u64<D, kairos::bits::hw::div32<D>>(x)), x / D);
    KT_CHECK_EQ((kairos::div_u64<D, kairos::bits::sw::div32<D>>(x)), x / D);
    const auto n = static_cast<std::uint32_t>(x);
    KT_CHECK_EQ(kairos::bits::sw::div32<D>(n), n / D);
    KT_CHECK_EQ(kairos::bits::mulhi32(n, static_cast<std::uint32_t>(x >> 32)),
                static_cast<std::uint32_t>((std::uint64_t{n} * (x >> 32)) >> 32));
}
inline void bits_div_u64() {
    ktest::rng r(0x646976ull);
    for (unsigned i = 0; i < 4000; ++i) {
        const std::uint64_t edge = i < 64 ? (std::uint64_t{1} << (i % 64)) - (i & 1) : 0;
        const std::uint64_t x = i < 64 ? edge : r.next() >> (i % 61);
        check_div<1>(x);
        check_div<16>(x);
        check_div<25>(x);
        check_div<40>(x);
        check_div<80>(x);
        check_div<160>(x);
        check_div<3>(x);
        check_div<65535>(x);
    }
    check_div<65535>(~std::uint64_t{0});
    check_div<7>(~std::uint64_t{0});
}

}  // namespace scenarios

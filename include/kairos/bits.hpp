// SPDX-License-Identifier: MIT
// kairos/bits.hpp: bit scans for 32- and 64-bit words, and a 64-bit
// division by a small constant (div_u64) for cores without one.
//
// msb(), lsb(), popcount() and test_and_clear() in two implementations:
//   kairos::bits::hw  compiler builtins; one instruction where KAIROS_HAS_CLZ
//   kairos::bits::sw  de Bruijn multiply and SWAR; no library calls, so an
//                     ARMv6-M or any core without CLZ never reaches libgcc's
//                     __clzsi2/__ctzsi2 loops
// The unqualified kairos::msb() etc. pick one from KAIROS_HAS_CLZ /
// KAIROS_HAS_POPCNT. Both are compiled and tested on every host.
#pragma once

#include <kairos/config.hpp>

#include <cstdint>

namespace kairos {
namespace bits {

namespace detail {
// De Bruijn sequences: multiplying an isolated bit by the constant moves a
// unique 5-bit (6-bit) pattern into the top bits, which indexes the table.
inline constexpr std::uint32_t debruijn32 = 0x077CB531u;
inline constexpr std::uint8_t debruijn32_index[32] = {
    0,  1,  28, 2,  29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4,  8,
    31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6,  11, 5,  10, 9};
inline constexpr std::uint64_t debruijn64 = 0x03F79D71B4CB0A89ull;
inline constexpr std::uint8_t debruijn64_index[64] = {
    0,  1,  48, 2,  57, 49, 28, 3,  61, 58, 50, 42, 38, 29, 17, 4,
    62, 55, 59, 36, 53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12, 5,
    63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
    46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9,  13, 8,  7,  6};

// lsb_scaled_table<S>: debruijn32_index with every entry multiplied by S.
template <unsigned S>
struct lsb_scaled_table {
    std::uint8_t v[32];
};
template <unsigned S>
constexpr lsb_scaled_table<S> make_lsb_scaled_table() noexcept {
    lsb_scaled_table<S> t{};
    for (unsigned i = 0; i < 32; ++i) t.v[i] = static_cast<std::uint8_t>(debruijn32_index[i] * S);
    return t;
}
template <unsigned S>
inline constexpr lsb_scaled_table<S> lsb_scaled = make_lsb_scaled_table<S>();

// smear(x) sets every bit below the highest set bit; (smear(x) >> 1) + 1
// then isolates the highest set bit for the de Bruijn lookup.
constexpr std::uint32_t smear(std::uint32_t x) noexcept {
    x |= x >> 1;
    x |= x >> 2;
    x |= x >> 4;
    x |= x >> 8;
    x |= x >> 16;
    return x;
}
constexpr std::uint64_t smear(std::uint64_t x) noexcept {
    x |= x >> 1;
    x |= x >> 2;
    x |= x >> 4;
    x |= x >> 8;
    x |= x >> 16;
    x |= x >> 32;
    return x;
}
}  // namespace detail

// Software implementations: no instruction beyond shift, and, multiply.
namespace sw {

// lsb(x) returns the index of the lowest set bit. Requires x != 0. Always
// inline: seven instructions on ARMv6-M, where it picks the next thread at
// every switch, and -Os would call one shared copy.
__attribute__((always_inline)) constexpr unsigned lsb(std::uint32_t x) noexcept {
    KAIROS_ASSERT(x != 0);
    return detail::debruijn32_index[((x & (0u - x)) * detail::debruijn32) >> 27];
}
constexpr unsigned lsb(std::uint64_t x) noexcept {
    KAIROS_ASSERT(x != 0);
    return detail::debruijn64_index[((x & (0ull - x)) * detail::debruijn64) >> 58];
}

// lsb_times<S>(x) returns lsb(x) * S, read from a table scaled by S: the
// byte offset of element lsb(x) of an array of S-byte elements, without the
// multiply or shift after the lookup. Requires x != 0 and 31 * S < 256.
// Always inline, as lsb().
template <unsigned S>
__attribute__((always_inline)) constexpr unsigned lsb_times(std::uint32_t x) noexcept {
    static_assert(S >= 1 && 31 * S < 256, "lsb_times: the scaled index must fit a byte");
    KAIROS_ASSERT(x != 0);
    return detail::lsb_scaled<S>.v[((x & (0u - x)) * detail::debruijn32) >> 27];
}

// msb(x) returns the index of the highest set bit. Requires x != 0.
constexpr unsigned msb(std::uint32_t x) noexcept {
    KAIROS_ASSERT(x != 0);
    const std::uint32_t s = detail::smear(x);
    return detail::debruijn32_index[(((s >> 1) + 1) * detail::debruijn32) >> 27];
}
constexpr unsigned msb(std::uint64_t x) noexcept {
    KAIROS_ASSERT(x != 0);
    const std::uint64_t s = detail::smear(x);
    return detail::debruijn64_index[(((s >> 1) + 1) * detail::debruijn64) >> 58];
}

// popcount(x) returns the number of set bits (SWAR: pairs, nibbles, bytes).
constexpr unsigned popcount(std::uint32_t x) noexcept {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return static_cast<unsigned>((x * 0x01010101u) >> 24);
}
constexpr unsigned popcount(std::uint64_t x) noexcept {
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return static_cast<unsigned>((x * 0x0101010101010101ull) >> 56);
}

// test_and_clear(x) returns the index of the lowest set bit of x and clears
// it. Requires x != 0.
template <class W>
constexpr unsigned test_and_clear(W& x) noexcept {
    const unsigned i = lsb(x);
    x &= x - 1;  // clears the lowest set bit without a shift by i
    return i;
}

}  // namespace sw

// Builtin implementations: one instruction where the core has it, a libgcc
// call where it does not (that is why sw exists).
namespace hw {

constexpr unsigned msb(std::uint32_t x) noexcept {
    KAIROS_ASSERT(x != 0);
    return 31u - static_cast<unsigned>(__builtin_clz(x));
}
constexpr unsigned msb(std::uint64_t x) noexcept {
    KAIROS_ASSERT(x != 0);
    return 63u - static_cast<unsigned>(__builtin_clzll(x));
}
constexpr unsigned lsb(std::uint32_t x) noexcept {
    KAIROS_ASSERT(x != 0);
    return static_cast<unsigned>(__builtin_ctz(x));
}
constexpr unsigned lsb(std::uint64_t x) noexcept {
    KAIROS_ASSERT(x != 0);
    return static_cast<unsigned>(__builtin_ctzll(x));
}
constexpr unsigned popcount(std::uint32_t x) noexcept {
    return static_cast<unsigned>(__builtin_popcount(x));
}
constexpr unsigned popcount(std::uint64_t x) noexcept {
    return static_cast<unsigned>(__builtin_popcountll(x));
}

// test_and_clear(x) returns the index of the highest set bit of x and clears
// it: with CLZ in hardware that is one instruction and no negation. Requires
// x != 0.
template <class W>
constexpr unsigned test_and_clear(W& x) noexcept {
    const unsigned i = msb(x);
    x &= ~(W{1} << i);
    return i;
}

}  // namespace hw

}  // namespace bits

#if KAIROS_HAS_CLZ
namespace bits_impl = bits::hw;
#else
namespace bits_impl = bits::sw;
#endif

// msb(x): index of the highest set bit of x != 0.
constexpr unsigned msb(std::uint32_t x) noexcept { return bits_impl::msb(x); }
constexpr unsigned msb(std::uint64_t x) noexcept { return bits_impl::msb(x); }

// lsb(x): index of the lowest set bit of x != 0.
__attribute__((always_inline)) constexpr unsigned lsb(std::uint32_t x) noexcept { return bits_impl::lsb(x); }
constexpr unsigned lsb(std::uint64_t x) noexcept { return bits_impl::lsb(x); }

// popcount(x): number of set bits of x.
constexpr unsigned popcount(std::uint32_t x) noexcept {
#if KAIROS_HAS_POPCNT
    return bits::hw::popcount(x);
#else
    return bits::sw::popcount(x);
#endif
}
constexpr unsigned popcount(std::uint64_t x) noexcept {
#if KAIROS_HAS_POPCNT
    return bits::hw::popcount(x);
#else
    return bits::sw::popcount(x);
#endif
}

// test_and_clear(x) clears one set bit of x != 0 and returns its index:
// the highest where CLZ is one instruction, the lowest elsewhere (whichever
// is cheaper). Repeated calls visit every set bit exactly once.
constexpr unsigned test_and_clear(std::uint32_t& x) noexcept {
    return bits_impl::test_and_clear(x);
}
constexpr unsigned test_and_clear(std::uint64_t& x) noexcept {
    return bits_impl::test_and_clear(x);
}

namespace bits {

// mulhi32(a, b) returns the high 32 bits of the 64-bit product a * b from
// 16-bit partial products: for cores whose multiply gives only the low
// word (lx106, ARMv6-M), where a 64-bit product is a library call.
constexpr std::uint32_t mulhi32(std::uint32_t a, std::uint32_t b) noexcept {
    const std::uint32_t a0 = a & 0xFFFFu, a1 = a >> 16, b0 = b & 0xFFFFu, b1 = b >> 16;
    const std::uint32_t p01 = a0 * b1, p10 = a1 * b0;
    const std::uint32_t mid = ((a0 * b0) >> 16) + (p01 & 0xFFFFu) + (p10 & 0xFFFFu);  // < 3 * 2^16
    return a1 * b1 + (p01 >> 16) + (p10 >> 16) + (mid >> 16);
}

namespace hw {
// div32<D>(n) returns n / D with the compiler's division: one instruction,
// or a multiply-high for a constant D where the core has one.
template <std::uint32_t D>
constexpr std::uint32_t div32(std::uint32_t n) noexcept {
    return n / D;
}
}  // namespace hw

namespace sw {
// div32<D>(n) returns n / D for a constant 1 <= D < 2^16 without a division:
// q = mulhi32(n, floor(2^32 / D)) is n / D or one less (the reciprocal is
// short by less than one unit, so the product by less than n / 2^32 < 1),
// and one compare of the remainder fixes it.
template <std::uint32_t D>
constexpr std::uint32_t div32(std::uint32_t n) noexcept {
    static_assert(D >= 1 && D < (std::uint32_t{1} << 16), "div32: D must be in [1, 2^16)");
    if constexpr (D == 1) {
        return n;
    } else {
        constexpr auto reciprocal = static_cast<std::uint32_t>((std::uint64_t{1} << 32) / D);
        const std::uint32_t q = mulhi32(n, reciprocal);
        return n - q * D >= D ? q + 1 : q;
    }
}
}  // namespace sw

}  // namespace bits

// div_u64<D, Div32>(x) returns x / D for a 64-bit x and a constant
// 1 <= D < 2^16 with three 32-bit divisions by D, done by Div32: by default
// the core's division (KAIROS_HAS_DIV: udiv on ARMv7-M, a multiply-high on
// x86) or else a reciprocal multiply (bits::sw::div32), never a library
// call; a power of two is a shift. It is how the MCU ports convert cycles to
// microseconds; a plain 64-bit `/` calls libgcc's __udivmoddi4 (702 bytes
// on Cortex-M; now_us() on M3 94 -> 53 instructions) or a 64-bit
// shift-subtract loop on lx106.
#if KAIROS_HAS_DIV
template <std::uint32_t D>
inline constexpr auto div32_default = bits::hw::div32<D>;
#else
template <std::uint32_t D>
inline constexpr auto div32_default = bits::sw::div32<D>;
#endif
template <std::uint32_t D, std::uint32_t (*Div32)(std::uint32_t) noexcept = div32_default<D>>
constexpr std::uint64_t div_u64(std::uint64_t x) noexcept {
    static_assert(D > 0 && D < (std::uint32_t{1} << 16), "div_u64: D must be in [1, 2^16)");
    if constexpr ((D & (D - 1)) == 0) {
        return x / D;  // a shift
    } else {
        // Long division in base 2^16 below the top word: every partial
        // dividend is remainder * 2^16 + digit < D * 2^16, so it fits 32
        // bits.
        const auto hi = static_cast<std::uint32_t>(x >> 32);
        const auto lo = static_cast<std::uint32_t>(x);
        const std::uint32_t q2 = Div32(hi);
        const std::uint32_t mid = (hi - q2 * D) << 16 | lo >> 16;
        const std::uint32_t q1 = Div32(mid);
        const std::uint32_t low = (mid - q1 * D) << 16 | (lo & 0xFFFFu);
        return (std::uint64_t{q2} << 32) + (std::uint64_t{q1} << 16) + Div32(low);
    }
}

// divider16 is a run-time divisor 1 <= d < 2^16 prepared for div_u64(x, v):
// where the core divides (KAIROS_HAS_DIV) the quotient is one division
// instruction by d; elsewhere a power of two is a shift and any other d a
// multiply by the reciprocal floor((2^32 - 1) / d), computed once by
// make_divider16(), short by less than one unit and fixed by one compare.
// It is how the MCU ports turn cycles of a clock set at run time
// (port::set_cpu_hz()) into microseconds.
struct divider16 {
    std::uint32_t d;
    std::uint32_t reciprocal;
    std::uint32_t shift;  // log2(d) for a power of two, else 32
};
constexpr divider16 make_divider16(std::uint32_t d) noexcept {
    std::uint32_t shift = 32;
    if (d != 0 && (d & (d - 1)) == 0) {
        shift = 0;
        while ((std::uint32_t{1} << shift) != d) ++shift;
    }
    return {d, d == 0 ? 0 : 0xFFFFFFFFu / d, shift};
}

namespace bits {
namespace hw {
// div32(n, v) returns n / v.d with the core's division.
KAIROS_ISR_FN constexpr std::uint32_t div32(std::uint32_t n, const divider16& v) noexcept { return n / v.d; }
}  // namespace hw
namespace sw {
// div32(n, v) returns n / v.d by the reciprocal, without a division.
KAIROS_ISR_FN constexpr std::uint32_t div32(std::uint32_t n, const divider16& v) noexcept {
    const std::uint32_t q = mulhi32(n, v.reciprocal);
    return n - q * v.d >= v.d ? q + 1 : q;
}
}  // namespace sw
KAIROS_ISR_FN constexpr std::uint32_t div32(std::uint32_t n, const divider16& v) noexcept {
#if KAIROS_HAS_DIV
    return hw::div32(n, v);
#else
    return sw::div32(n, v);
#endif
}
}  // namespace bits

namespace bits {
// long_div_u64(x, v) is div_u64(x, v)'s long division in base 2^16. Kept
// out of line where the core has no division, so that the power-of-two
// shift in div_u64() does not pay for its registers.
#if !KAIROS_HAS_DIV && defined(__GNUC__)
__attribute__((noinline))
#endif
KAIROS_ISR_FN constexpr std::uint64_t long_div_u64(std::uint64_t x, const divider16& v) noexcept {
    const auto hi = static_cast<std::uint32_t>(x >> 32);
    const auto lo = static_cast<std::uint32_t>(x);
    const std::uint32_t q2 = div32(hi, v);
    const std::uint32_t mid = (hi - q2 * v.d) << 16 | lo >> 16;
    const std::uint32_t q1 = div32(mid, v);
    const std::uint32_t low = (mid - q1 * v.d) << 16 | (lo & 0xFFFFu);
    return (std::uint64_t{q2} << 32) + (std::uint64_t{q1} << 16) + div32(low, v);
}

namespace sw {
// shift_u64(x, s) returns x >> s for s < 32 in 32-bit halves: a 64-bit
// shift by a variable is a library call on ARMv6-M and lx106.
constexpr std::uint64_t shift_u64(std::uint64_t x, std::uint32_t s) noexcept {
    const auto hi = static_cast<std::uint32_t>(x >> 32);
    const auto lo = static_cast<std::uint32_t>(x);
    // (hi << 1) << (31 - s): hi << (32 - s) without a shift by 32 at s = 0.
    return (std::uint64_t{hi >> s} << 32) | (lo >> s | (hi << 1) << (31 - s));
}
}  // namespace sw
}  // namespace bits

// div_u64(x, v) returns x / v.d for a 64-bit x: div_u64<D>'s long division
// with a run-time divisor; where the core has no division, a power of two
// is a shift.
constexpr std::uint64_t div_u64(std::uint64_t x, const divider16& v) noexcept {
#if !KAIROS_HAS_DIV
    if (v.shift < 32) return bits::sw::shift_u64(x, v.shift);
#endif
    return bits::long_div_u64(x, v);
}

}  // namespace kairos

// SPDX-License-Identifier: MIT
// Integer helpers missing from Debian's xtensa-lx106 libgcc.a, which the
// compiler calls for plain C++ arithmetic on lx106 (no divide instruction,
// no 32x32->64 multiply): __udivsi3, __umodsi3, __divsi3, __udivdi3,
// __umoddi3, __divdi3, __muldi3 and __umulsidi3. The library does have __modsi3,
// __moddi3, __mulsi3 and the four-argument __udivmoddi4/__divmoddi4. Without
// these, any run-time division or 64-bit multiply fails to link.
// 32-bit division: restoring shift-subtract, one quotient bit per step from
// the divisor's highest useful position. 64-bit division: the library's own
// __udivmoddi4/__divmoddi4. 64-bit multiply: 16x16 partial products.
#include <cstdint>

namespace {

// udivmod32(n, d, r) returns n / d and stores n % d in r. d != 0.
inline std::uint32_t udivmod32(std::uint32_t n, std::uint32_t d, std::uint32_t& r) noexcept {
    if (d > n) {
        r = n;
        return 0;
    }
    // Align d's top bit with n's, then subtract downwards.
    const int shift = __builtin_clz(d) - __builtin_clz(n);  // nsau: one instruction
    std::uint32_t q = 0;
    d <<= shift;
    for (int i = 0; i <= shift; ++i) {
        q <<= 1;
        if (n >= d) {
            n -= d;
            q |= 1;
        }
        d >>= 1;
    }
    r = n;
    return q;
}

}  // namespace

extern "C" {

std::uint64_t __udivmoddi4(std::uint64_t n, std::uint64_t d, std::uint64_t* r);
std::int64_t __divmoddi4(std::int64_t n, std::int64_t d, std::int64_t* r);

unsigned __udivsi3(unsigned n, unsigned d) {
    std::uint32_t r;
    return udivmod32(n, d, r);
}

unsigned __umodsi3(unsigned n, unsigned d) {
    std::uint32_t r;
    udivmod32(n, d, r);
    return r;
}

int __divsi3(int n, int d) {
    const std::uint32_t un = n < 0 ? 0u - static_cast<std::uint32_t>(n) : static_cast<std::uint32_t>(n);
    const std::uint32_t ud = d < 0 ? 0u - static_cast<std::uint32_t>(d) : static_cast<std::uint32_t>(d);
    std::uint32_t r;
    const std::uint32_t q = udivmod32(un, ud, r);
    return static_cast<int>((n < 0) != (d < 0) ? 0u - q : q);  // C truncates toward zero
}

std::uint64_t __udivdi3(std::uint64_t n, std::uint64_t d) { return __udivmoddi4(n, d, nullptr); }

std::uint64_t __umoddi3(std::uint64_t n, std::uint64_t d) {
    std::uint64_t r;
    __udivmoddi4(n, d, &r);
    return r;
}

std::int64_t __divdi3(std::int64_t n, std::int64_t d) { return __divmoddi4(n, d, nullptr); }

// __umulsidi3(a, b) returns the full 64-bit product of two 32-bit words,
// built from 16-bit halves because lx106's mull gives only the low 32 bits.
// libgcc's own __udivmoddi4 calls it, and libgcc does not define it either.
std::uint64_t __umulsidi3(std::uint32_t a, std::uint32_t b) {
    const std::uint32_t a0 = a & 0xFFFFu, a1 = a >> 16, b0 = b & 0xFFFFu, b1 = b >> 16;
    const std::uint32_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    const std::uint32_t mid = (p00 >> 16) + (p01 & 0xFFFFu) + (p10 & 0xFFFFu);  // < 3 * 2^16
    const std::uint32_t lo = (mid << 16) | (p00 & 0xFFFFu);
    const std::uint32_t hi = p11 + (p01 >> 16) + (p10 >> 16) + (mid >> 16);
    return (std::uint64_t{hi} << 32) | lo;
}

// __muldi3(a, b) returns the low 64 bits of a * b (signedness does not
// matter for the low half): the low words' full product plus the two cross
// products, which only reach the high word.
std::uint64_t __muldi3(std::uint64_t a, std::uint64_t b) {
    const auto al = static_cast<std::uint32_t>(a), bl = static_cast<std::uint32_t>(b);
    const std::uint32_t cross = static_cast<std::uint32_t>(a >> 32) * bl + al * static_cast<std::uint32_t>(b >> 32);
    return __umulsidi3(al, bl) + (std::uint64_t{cross} << 32);
}

}  // extern "C"

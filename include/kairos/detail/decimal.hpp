// SPDX-License-Identifier: MIT
// kairos/detail/decimal.hpp: unsigned integers as decimal text without a
// division. ARMv6-M has no divide instruction and lx106's libgcc lacks
// __udivsi3/__udivdi3, so `v % 10` would pull in (or need) a library
// routine. Used by the kernel's stack-overflow report, the MCU panic line
// and the target tests' output.
#pragma once

#include <cstdint>
#include <type_traits>

namespace kairos::detail {

template <class UInt>
struct pow10_table {
    UInt v[sizeof(UInt) == 4 ? 10 : 20];  // 10^(n-1) .. 10^0
};

template <class UInt>
constexpr pow10_table<UInt> make_pow10() noexcept {
    pow10_table<UInt> t{};
    UInt w = 1;
    for (auto i = sizeof t.v / sizeof t.v[0]; i-- > 0;) {
        t.v[i] = w;
        w = static_cast<UInt>(w * 10u);  // wraps after the last entry: unused
    }
    return t;
}

template <class UInt>
inline constexpr pow10_table<UInt> pow10 = make_pow10<UInt>();

// put_decimal(p, v) writes v in decimal at p by subtracting powers of ten
// and returns the end (no terminator written). Room needed: 10 characters
// for std::uint32_t, 20 for std::uint64_t; the 32-bit form keeps table and
// arithmetic narrow for callers that need no more.
template <class UInt>
char* put_decimal(char* p, UInt v) noexcept {
    static_assert(std::is_same_v<UInt, std::uint32_t> || std::is_same_v<UInt, std::uint64_t>,
                  "put_decimal: std::uint32_t or std::uint64_t");
    char* const start = p;
    for (const UInt w : pow10<UInt>.v) {
        char d = '0';
        while (v >= w) {
            v -= w;
            ++d;
        }
        if (d != '0' || p != start || w == 1) *p++ = d;
    }
    return p;
}

}  // namespace kairos::detail

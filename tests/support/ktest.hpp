// SPDX-License-Identifier: MIT
// ktest.hpp: the thin assertion layer shared by host and target tests.
//
// Scenario functions (tests/scenarios/*.hpp) check with KT_CHECK / KT_REQUIRE
// only, so the same source runs under GoogleTest on the host (a failure
// becomes ADD_FAILURE, see ktest_gtest.cpp) and under the bare-metal runner
// on a microcontroller (a failure is printed over semihosting and sets the
// exit code). No heap, no exceptions, no iostreams.
#pragma once

#include <cstdint>

namespace ktest {

// fail_handler receives every failed check: the expression text and where.
using fail_handler = void (*)(const char* expr, const char* file, int line);

inline fail_handler& handler() noexcept {
    static fail_handler h = nullptr;
    return h;
}
inline unsigned& failures() noexcept {
    static unsigned n = 0;
    return n;
}

inline void fail(const char* expr, const char* file, int line) {
    ++failures();
    if (handler() != nullptr) handler()(expr, file, line);
}

// rng is xorshift64*: deterministic, seedable, identical on every target.
struct rng {
    std::uint64_t s;
    explicit constexpr rng(std::uint64_t seed) noexcept : s(seed ? seed : 0x9E3779B97F4A7C15ull) {}
    std::uint64_t next() noexcept {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return s * 0x2545F4914F6CDD1Dull;
    }
    std::uint32_t next32() noexcept { return static_cast<std::uint32_t>(next() >> 32); }
};

}  // namespace ktest

#define KT_CHECK(cond) ((cond) ? static_cast<void>(0) : ::ktest::fail(#cond, __FILE__, __LINE__))
#define KT_CHECK_EQ(a, b) KT_CHECK((a) == (b))
// KT_REQUIRE stops the current scenario (a void function) on failure.
#define KT_REQUIRE(cond)                              \
    do {                                              \
        if (!(cond)) {                                \
            ::ktest::fail(#cond, __FILE__, __LINE__); \
            return;                                   \
        }                                             \
    } while (0)

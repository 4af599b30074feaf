// SPDX-License-Identifier: MIT
// runner.hpp: the bare-metal test runner for scenarios written with ktest.
//
// A firmware lists its scenarios and returns run(list) from main(): each
// scenario runs in turn, failed checks are printed over semihosting with
// their expression and location, and the exit status is the number of failed
// scenarios (0 = pass), so ctest sees failures.
#pragma once

#include "ktest.hpp"
#include "target.hpp"

#include <cstddef>

namespace ktarget {

struct test_case {
    const char* name;
    void (*fn)();
};

// Failed checks printed per case; the rest are only counted, so a broken
// loop cannot flood the log (or run into the test timeout printing).
inline constexpr unsigned max_printed_failures = 8;
inline unsigned& case_failures() noexcept {
    static unsigned n = 0;
    return n;
}

inline void print_failure(const char* expr, const char* file, int line) {
    if (++case_failures() > max_printed_failures) return;
    print("  check failed: ");
    print(expr);
    print(" at ");
    print(file);
    print(":");
    print_u64(static_cast<std::uint64_t>(line));
    print("\n");
}

// run(cases) runs every case and returns the number that failed (capped at
// 90 so it never collides with the port's fatal exit codes 96..98).
template <std::size_t N>
int run(const test_case (&cases)[N]) {
    ktest::handler() = &print_failure;
    int failed = 0;
    for (const test_case& c : cases) {
        const unsigned before = ktest::failures();
        case_failures() = 0;
        c.fn();
        const bool ok = ktest::failures() == before;
        if (case_failures() > max_printed_failures) {
            print("  ... ");
            print_u64(case_failures() - max_printed_failures);
            print(" more failed checks\n");
        }
        print(ok ? "[  OK  ] " : "[ FAIL ] ");
        print(c.name);
        print("\n");
        if (!ok && failed < 90) ++failed;
    }
    print(failed == 0 ? "PASSED\n" : "FAILED\n");
    return failed;
}

}  // namespace ktarget

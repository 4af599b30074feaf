// SPDX-License-Identifier: MIT
// The portable assertion layer must fail the GoogleTest test that runs a
// scenario: if ktest_gtest.cpp's routing is not linked in, scenario checks
// cannot fail on the host (this happened once: a STATIC support library let
// the linker drop the routing object).
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "ktest.hpp"

namespace {
void failing_scenario() {
    KT_REQUIRE(1 + 1 == 3);
    KT_CHECK(false);  // not reached: KT_REQUIRE returned
}
}  // namespace

TEST(ktest, failed_check_fails_the_gtest) {
    const unsigned before = ktest::failures();
    EXPECT_NONFATAL_FAILURE(KT_CHECK(2 + 2 == 5), "KT_CHECK failed: 2 + 2 == 5");
    EXPECT_EQ(ktest::failures(), before + 1);
}

TEST(ktest, require_stops_the_scenario) {
    const unsigned before = ktest::failures();
    EXPECT_NONFATAL_FAILURE(failing_scenario(), "1 + 1 == 3");
    EXPECT_EQ(ktest::failures(), before + 1);
}

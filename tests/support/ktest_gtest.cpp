// SPDX-License-Identifier: MIT
// Routes ktest failures into GoogleTest, so a failed KT_CHECK inside a
// portable scenario fails the TEST that ran it, with file and line.
#include "ktest.hpp"

#include <gtest/gtest.h>

namespace {
struct route_ktest_to_gtest : ::testing::Environment {
    void SetUp() override {
        ktest::handler() = [](const char* expr, const char* file, int line) {
            ADD_FAILURE_AT(file, line) << "KT_CHECK failed: " << expr;
        };
    }
};
const auto* const registered = ::testing::AddGlobalTestEnvironment(new route_ktest_to_gtest);
}  // namespace

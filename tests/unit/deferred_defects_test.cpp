// SPDX-License-Identifier: MIT
// Defects of the deferred scheduler's recurrent side, each pinned by a test:
// ties in registration order on a fake clock, next_due() near the end of the
// 64-bit time line.
#include <gtest/gtest.h>

#include <kairos/deferred.hpp>

#include <cstdint>

#include "deferred_scenarios.hpp"

namespace {

TEST(deferred_defects, ties_run_in_registration_order) {
    scenarios::recurrent_ties_in_registration_order();
}

TEST(deferred_defects, next_due_at_the_end_of_the_time_line) {
    scenarios::recurrent_next_due_at_the_end_of_the_time_line();
}

}  // namespace

// SPDX-License-Identifier: MIT
// bits scenarios (tests/scenarios/bits_scenarios.hpp) on the target core:
// the hw path is the core's own CLZ/CTZ (or libgcc on ARMv6-M), the sw path
// de Bruijn; both against a naive reference. div_u64 against libgcc. And
// the path the build selected: KAIROS_TARGET_EXPECT_CLZ is what the preset's
// ISA has (tests/target/CMakeLists.txt: CLZ in one instruction or not).
#include <kairos/kernel/config.hpp>

#include "bits_scenarios.hpp"
#include "runner.hpp"

#ifndef KAIROS_TARGET_EXPECT_CLZ
#  error "KAIROS_TARGET_EXPECT_CLZ: whether the preset's core has CLZ (tests/target/CMakeLists.txt)"
#endif

namespace {
void edges() { scenarios::bits_edges(); }
void random_words() { scenarios::bits_random(2000); }
void exhaustive16() { scenarios::bits_exhaustive16(); }
void div_u64() { scenarios::bits_div_u64(); }

// selected_path: with CLZ the unqualified functions are the hw path, whose
// test_and_clear visits the highest bit first, and the run queue keeps its
// bitmap reversed (one CLZ finds the best level); without, the lowest bit
// first and the natural order.
void selected_path() {
    volatile std::uint32_t word = 0x81u;  // volatile: evaluated on the target, not folded
    std::uint32_t w = word;
    KT_CHECK_EQ(kairos::test_and_clear(w), KAIROS_TARGET_EXPECT_CLZ ? 7u : 0u);
    const bool reversed = kairos::kernel::runqueue_encoding == kairos::detail::prio_encoding::clz;
    KT_CHECK_EQ(reversed, KAIROS_TARGET_EXPECT_CLZ != 0);
}
}  // namespace

int main() {
    static const ktarget::test_case cases[] = {
        {"bits_edges", edges},
        {"bits_random", random_words},
        {"bits_exhaustive16", exhaustive16},
        {"bits_div_u64", div_u64},
        {"bits_selected_path", selected_path},
    };
    return ktarget::run(cases);
}

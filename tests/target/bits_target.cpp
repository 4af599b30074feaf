// SPDX-License-Identifier: MIT
// bits scenarios (tests/scenarios/bits_scenarios.hpp) on the target core:
// the hw path is the core's own CLZ/CTZ (or libgcc on ARMv6-M), the sw path
// de Bruijn; both against a naive reference. div_u64 against libgcc.
#include "bits_scenarios.hpp"
#include "runner.hpp"

namespace {
void edges() { scenarios::bits_edges(); }
void random_words() { scenarios::bits_random(2000); }
void exhaustive16() { scenarios::bits_exhaustive16(); }
void div_u64() { scenarios::bits_div_u64(); }
}  // namespace

int main() {
    static const ktarget::test_case cases[] = {
        {"bits_edges", edges},
        {"bits_random", random_words},
        {"bits_exhaustive16", exhaustive16},
        {"bits_div_u64", div_u64},
    };
    return ktarget::run(cases);
}

// SPDX-License-Identifier: MIT
// The seed's stress (seed_stress.hpp) at a reduced count, with checks: for
// chunk sizes 20, 30, 35, 50 per 1 ms tick into 32 slots, seed::failure()
// (every message runs once and in order, refused pushes are exactly those a
// full queue must refuse and all counted, the virtual time to completion is
// within the bounds). bench/target/seed_bench.cpp runs the full
// 100 000 messages with the same code and criteria.
#include <cstdint>

#include "runner.hpp"
#include "seed_stress.hpp"

namespace {

#ifndef KAIROS_SEED_MESSAGES
#  define KAIROS_SEED_MESSAGES 3000
#endif

void check_chunk(std::uint32_t chunk) {
    const seed::result r = seed::run_seed(chunk, KAIROS_SEED_MESSAGES);
    seed::print_result(r);
    const char* const why = seed::failure(r);
    if (why != nullptr) {
        ktarget::print("  seed: ");
        ktarget::print(why);
        ktarget::print("\n");
    }
    KT_CHECK(why == nullptr);
}

void chunk_20() { check_chunk(20); }
void chunk_30() { check_chunk(30); }
void chunk_35() { check_chunk(35); }
void chunk_50() { check_chunk(50); }

}  // namespace

int main() {
    static const ktarget::test_case cases[] = {
        {"seed_chunk_20", chunk_20},
        {"seed_chunk_30", chunk_30},
        {"seed_chunk_35", chunk_35},
        {"seed_chunk_50", chunk_50},
    };
    return ktarget::run(cases);
}

// The seed's stress (seed_stress.hpp) at a reduced count, with checks: for
// chunk sizes 20, 30, 35, 50 per 1 ms tick into 32 slots, every message runs
// once and in order, refused pushes are exactly those a full queue must
// refuse (and every one is counted by overflows()), and the virtual time to
// completion is within the bounds of the ticker/capacity bound
// (5 % at <= 32 per tick, 10 % above). bench/target/seed_bench.cpp runs the
// full 100 000 messages with the same code.
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
    KT_CHECK(r.completed);
    KT_CHECK_EQ(r.lost, 0u);
    KT_CHECK_EQ(r.reordered, 0u);
    KT_CHECK_EQ(r.bad_id, 0u);
    KT_CHECK(!r.bad_last);
    KT_CHECK_EQ(r.failed, seed::expected_failed(chunk, KAIROS_SEED_MESSAGES));
    KT_CHECK_EQ(r.overflows, r.failed);
    // The first tick comes 1 ms after attach and the last message runs
    // within that tick's millisecond.
    const std::uint64_t bound_ns = std::uint64_t{seed::bound_ticks(chunk, KAIROS_SEED_MESSAGES)} * 1000000u;
    const std::uint64_t slack = chunk <= 32 ? bound_ns / 20 : bound_ns / 10;
    KT_CHECK(r.virtual_ns >= bound_ns);
    KT_CHECK(r.virtual_ns <= bound_ns + slack);
    KT_CHECK(r.busy_insns > 0 && r.busy_insns < r.virtual_ns);
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

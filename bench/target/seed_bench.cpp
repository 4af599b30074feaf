// SPDX-License-Identifier: MIT
// Benchmark firmware: the seed's 100 000-task stress (tests/target/
// seed_stress.hpp) for 20, 30, 35 and 50 messages per 1 ms tick into 32
// slots, in QEMU virtual time.
//
// Per chunk size it prints the seed line of seed_stress.hpp and RIOT's
// format, `{ "result" : R, "ticks" : T }`, with R = virtual milliseconds to
// completion (the seed's "done after N ms") and T = instructions per
// message from the board timer (busy time: the span minus the time asleep
// in WFI/waiti). The run sits between two calls of kairos_bench_mark(), so
// the insncount plugin counts the same span exactly; bench/target/collect
// reports the plugin's figure and checks the two agree.
//
// The firmware fails (exit status = number of failed chunk sizes) on any
// lost, reordered, bad-id or bad-last message, an incomplete run, refused
// pushes other than a full queue must refuse, or a completion time outside
// the bounds (5 % of the ticker bound at <= 32 per tick, 10 % of
// the capacity bound above): a number is only reported for a correct run.
#include <cstdint>

#include "seed_stress.hpp"
#include "target.hpp"

extern "C" __attribute__((noinline, used)) void kairos_bench_mark() { asm volatile("" ::: "memory"); }

namespace {

constexpr std::uint32_t messages = 100000;

bool run_chunk(std::uint32_t chunk) {
    kairos_bench_mark();
    const seed::result r = seed::run_seed(chunk, messages);
    kairos_bench_mark();
    seed::print_result(r);
    const std::uint64_t ms = (r.virtual_ns + 500000) / 1000000;
    const std::uint64_t ticks = (r.busy_insns + messages / 2) / messages;
    ktarget::print("{ \"result\" : ");
    ktarget::print_u64(ms);
    ktarget::print(", \"ticks\" : ");
    ktarget::print_u64(ticks);
    ktarget::print(" }\n");

    const char* const why = seed::failure(r);
    if (why != nullptr) {
        ktarget::print("seed: FAILED: ");
        ktarget::print(why);
        ktarget::print("\n");
    }
    return why == nullptr;
}

}  // namespace

int main() {
    int failed = 0;
    for (const std::uint32_t chunk : {20u, 30u, 35u, 50u}) failed += run_chunk(chunk) ? 0 : 1;
    return failed;
}

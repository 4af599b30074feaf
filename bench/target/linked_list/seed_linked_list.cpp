// SPDX-License-Identifier: MIT
// Benchmark firmware: the seed's 100 000-task stress on the linked-list
// design kairos replaces (bench/baselines/esp8266_linked_list.cpp: heap
// nodes holding a std::function, every list update under the interrupt
// lock), on the same 1 ms kairos::ticker, with the same sketch, checks and
// report as bench/target/seed_bench.cpp (tests/target/seed_stress.hpp):
// only the scheduler differs. The loop sleeps (waiti) while nothing is
// queued, as kairos' does, so both count the work, not polling.
//
// Unlike kairos' firmware it does not fail on a missed bound: the point is
// where the baseline watchdogs or falls behind. Per chunk size it prints
// the seed line plus `longest_pass_us`, the longest single call of
// run_scheduled_functions() (the time the ESP8266 loop would not return:
// the soft watchdog fires at about 3.2 s), and `seed: FAILED: <why>` for a
// missed criterion of seed::failure(). Exit status: the number of chunk
// sizes with lost, reordered or bad messages or an incomplete run.
#include <cstdint>

#include "../../baselines/esp8266_linked_list.hpp"
#include "seed_stress.hpp"
#include "target.hpp"

extern "C" __attribute__((noinline, used)) void kairos_bench_mark() { asm volatile("" ::: "memory"); }

namespace {

constexpr std::uint32_t messages = 100000;

baseline::esp8266_linked_list list;
volatile std::uint32_t ran = 0;  // functions run (the loop's side)

void tick() noexcept {
    seed_sketch::produce(seed::st, [](std::uint32_t msg) {
        return list.schedule_function([msg] {
            ran = ran + 1;
            if (!seed_sketch::check(seed::st, msg)) seed::stop_timer();
        });
    });
}

// idle() is true when every accepted message has run.
bool idle() noexcept { return ran == seed::st.msg_no; }

bool run_chunk(std::uint32_t chunk) {
    seed::st = seed::state{};
    seed::st.count = messages;
    seed::st.chunk = chunk;
    seed::st.tick_limit = 2 * (messages / (chunk < 32 ? chunk : 32)) + 10;
    ran = 0;
    std::uint64_t asleep = 0, longest = 0;
    std::uint32_t sleeps = 0;
    namespace board = kairos::lx106;

    kairos_bench_mark();
    board::set_tick_hook([] { seed::st.wake = board::cycles(); });
    const std::uint64_t t0 = board::cycles();
    if (!seed::seed_ticker.attach_ms(1, &tick)) kairos_port_panic("seed: attach_ms", __FILE__, __LINE__);
    while (seed::st.pending > 0 && seed::st.ticks <= seed::st.tick_limit) {
        const std::uint64_t p0 = board::cycles();
        list.run_scheduled_functions();
        const std::uint64_t pass = board::cycles() - p0;
        if (pass > longest) longest = pass;
        const auto s = seed::sleep_mask();
        if (idle() && seed::st.pending > 0) {
            ++sleeps;
            const std::uint64_t w0 = board::cycles();
            asm volatile("waiti 0" ::: "memory");  // as seed::sleep_if_idle()
            asleep += seed::st.wake > w0 ? seed::st.wake - w0 : 0;
        }
        seed::sleep_unmask(s);
    }
    const std::uint64_t t1 = board::cycles();
    seed::stop_timer();
    board::set_tick_hook(nullptr);
    kairos_bench_mark();
    list.run_scheduled_functions();

    seed::result r;
    r.chunk = chunk;
    r.messages = messages;
    r.failed = seed::st.failed;
    r.lost = seed::st.lost;
    r.reordered = seed::st.reordered;
    r.bad_id = seed::st.bad_id;
    r.completed = seed::st.pending == 0;
    r.bad_last = seed::st.next_val != messages - 1;
    r.ticks = seed::st.ticks;
    r.virtual_ns = (t1 - t0) * 1000000000ull / KAIROS_QEMU_TIMER_HZ;
    r.busy_insns = (t1 - t0 - asleep) * 1000000000ull / KAIROS_QEMU_TIMER_HZ;
    r.overflows = r.failed;  // the baseline counts nothing itself
    r.sleeps = sleeps;
    seed::print_result(r);
    ktarget::print("linked_list chunk ");
    ktarget::print_u64(chunk);
    ktarget::print(" longest_pass_us ");
    ktarget::print_u64(longest * 1000000ull / KAIROS_QEMU_TIMER_HZ);
    ktarget::print("\n");
    if (const char* why = seed::failure(r)) {
        ktarget::print("seed: FAILED: ");
        ktarget::print(why);
        ktarget::print("\n");
    }
    return r.completed && r.lost == 0 && r.reordered == 0 && r.bad_id == 0 && !r.bad_last;
}

}  // namespace

int main() {
    int failed = 0;
    for (const std::uint32_t chunk : {20u, 30u, 35u, 50u}) failed += run_chunk(chunk) ? 0 : 1;
    return failed;
}

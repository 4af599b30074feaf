// SPDX-License-Identifier: MIT
// kairos::ticker on the MCU ports (multiplexed on the port's 1 ms tick:
// SysTick, lx106 CCOMPARE0) feeding the deferred scheduler, the way ESP8266
// sketches use Ticker + schedule_function: the ticker callback runs in the
// tick interrupt and only schedule()s; the main loop runs the work.
#include <kairos/deferred.hpp>
#include <kairos/port.hpp>
#include <kairos/ticker.hpp>

#include <cstdint>

#include "runner.hpp"

namespace {

kairos::deferred<8, 2> loop_sched;

std::uint32_t loop_runs;    // functions run by the main loop
std::uint32_t in_isr_seen;  // ticker callbacks that ran in interrupt context

void periodic_feeds_deferred() {
    loop_runs = 0;
    in_isr_seen = 0;
    kairos::ticker t;
    const std::uint64_t t0 = kairos::port::now_us();
    KT_REQUIRE(t.attach_ms(2, [] {
        in_isr_seen += kairos::port::in_isr() ? 1 : 0;
        (void)loop_sched.schedule([] { ++loop_runs; });
    }));
    KT_CHECK(t.active());
    while (loop_runs < 50) loop_sched.run();
    const std::uint64_t elapsed = kairos::port::now_us() - t0;
    t.detach();
    KT_CHECK(!t.active());
    KT_CHECK_EQ(in_isr_seen, 50u);
    // 50 periods of 2 ms, at 1 ms resolution.
    KT_CHECK(elapsed >= 99000 && elapsed <= 101000);
    KT_CHECK_EQ(t.overruns(), 0u);
    // Detached: nothing more arrives.
    const std::uint64_t until = kairos::port::now_us() + 10000;
    while (kairos::port::now_us() < until) loop_sched.run();
    KT_CHECK_EQ(loop_runs, 50u);
}

void once_fires_once() {
    kairos::ticker t;
    static std::uint32_t fired;
    fired = 0;
    const std::uint64_t t0 = kairos::port::now_us();
    static std::uint64_t at;
    KT_REQUIRE(t.once_ms(5, [] {
        ++fired;
        at = kairos::port::now_us();
    }));
    const std::uint64_t until = t0 + 20000;
    while (kairos::port::now_us() < until) {
    }
    KT_CHECK_EQ(fired, 1u);
    KT_CHECK(!t.active());
    KT_CHECK(at - t0 >= 5000 && at - t0 <= 6000);
}

// Periods below the 1 ms tick cannot all be delivered: the missed ones are
// counted, not replayed.
void short_period_counts_overruns() {
    kairos::ticker t;
    static std::uint32_t fired;
    fired = 0;
    const std::uint64_t t0 = kairos::port::now_us();
    KT_REQUIRE(t.attach_us(250, [] { ++fired; }));
    const std::uint64_t until = t0 + 20000;
    while (kairos::port::now_us() < until) {
    }
    const std::uint64_t t1 = kairos::port::now_us();
    t.detach();
    KT_CHECK(fired >= 19 && fired <= 21);      // one per 1 ms tick
    KT_CHECK(t.overruns() >= 3 * (fired - 1));  // three of four missed each time
    // Every expiration up to the last tick is either fired or counted: the
    // total is (t1 - t0) / 250 minus at most one tick's worth (4).
    const std::uint64_t due = (t1 - t0) / 250, total = t.overruns() + fired;
    KT_CHECK(total <= due && total + 5 >= due);
}

void zero_period_and_pool_limits() {
    kairos::ticker t;
    KT_CHECK(!t.attach_us(0, [] {}));
    static kairos::ticker many[9];
    int armed = 0;
    for (auto& m : many) armed += m.attach_ms(100, [] {}) ? 1 : 0;
    KT_CHECK_EQ(armed, 8);  // KAIROS_MCU_MAX_TICKERS
    for (auto& m : many) m.detach();
    KT_CHECK(many[8].attach_ms(100, [] {}));  // slots are free again
    many[8].detach();
}

}  // namespace

int main() {
    static const ktarget::test_case cases[] = {
        {"periodic_feeds_deferred", periodic_feeds_deferred},
        {"once_fires_once", once_fires_once},
        {"short_period_counts_overruns", short_period_counts_overruns},
        {"zero_period_and_pool_limits", zero_period_and_pool_limits},
    };
    return ktarget::run(cases);
}

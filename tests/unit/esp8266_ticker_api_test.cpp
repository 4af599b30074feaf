// SPDX-License-Identifier: MIT
// Ticker.h API that upstream code calls: explicit operator bool, copy (a
// fresh detached Ticker) and move (std::vector<Ticker>, classes holding a
// Ticker), the member types, a captureless lambda plus argument,
// attach_ms_scheduled_accurate. Ticks are awaited by
// count, never by time.
#include <gtest/gtest.h>

#include <Arduino.h>
#include <Schedule.h>
#include <Ticker.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <utility>
#include <vector>

namespace {
std::atomic<int> hits{0};  // written in the ticker's signal handler
void count_hit(int by) { hits.fetch_add(by, std::memory_order_relaxed); }  // relaxed: see below

// Relaxed throughout: the ticks run in this thread's signal handler, so
// the count is the only shared datum and needs no ordering.
int hit_count() { return hits.load(std::memory_order_relaxed); }
void reset_hits() { hits.store(0, std::memory_order_relaxed); }
// wait_hits(n) returns once n ticks counted (by count, not by time).
void wait_hits(int n) {
    while (hit_count() < n) {
    }
}

struct holder {  // a class holding a Ticker, as ServerSentEvents.ino does
    int id;
    Ticker t;
};
}  // namespace

TEST(esp8266_ticker_api, ticker_member_types) {
    static_assert(std::is_same_v<Ticker::callback_function_t, std::function<void()>>);
    static_assert(std::is_same_v<Ticker::callback_with_arg_t, void (*)(void*)>);
    static_assert(std::is_same_v<Ticker::remove_cvref_t<const int&>, int>);
    static_assert(std::is_same_v<Ticker::callback_with_typed_arg_t<const int&>, void (*)(int)>);
    static_assert(std::is_same_v<Ticker::callback_with_typed_arg_t<int, long>, void (*)(long)>);
}

TEST(esp8266_ticker_api, ticker_operator_bool) {
    static_assert(!std::is_convertible_v<Ticker, bool>, "explicit, as upstream");
    static_assert(std::is_constructible_v<bool, const Ticker&>);
    Ticker t;
    EXPECT_FALSE(t);
    t.attach_ms(3600000, [] {});
    EXPECT_TRUE(t);
    t.detach();
    EXPECT_FALSE(static_cast<bool>(t));
}

TEST(esp8266_ticker_api, ticker_copy_and_move_give_detached_tickers) {
    static_assert(std::is_nothrow_move_constructible_v<Ticker>);
    Ticker a;
    a.attach_ms(3600000, [] {});
    Ticker b(a);  // a fresh detached Ticker
    EXPECT_TRUE(a.active());
    EXPECT_FALSE(b.active());
    b.attach_ms(3600000, [] {});
    b = a;  // copy assignment detaches the target
    EXPECT_FALSE(b.active());
    EXPECT_TRUE(a.active());
    Ticker c(std::move(a));  // as upstream: the source is detached too
    EXPECT_FALSE(a.active());
    EXPECT_FALSE(c.active());
    c.attach_ms(3600000, [] {});
    a.attach_ms(3600000, [] {});
    c = std::move(a);
    EXPECT_FALSE(a.active());
    EXPECT_FALSE(c.active());

    std::vector<Ticker> v(3);
    v.emplace_back();
    v.back().attach_ms(3600000, [] {});
    EXPECT_TRUE(v.back().active());
    v.resize(40);  // reallocation moves them
    EXPECT_FALSE(v[3].active());
    std::vector<holder> hs;
    hs.push_back({1, Ticker()});
    hs[0] = {2, Ticker()};
    EXPECT_EQ(hs[0].id, 2);
}

TEST(esp8266_ticker_api, ticker_lambda_plus_argument) {
    reset_hits();
    Ticker t;
    t.attach_ms(1, [](int by) { count_hit(by); }, 2);  // captureless lambda
    wait_hits(4);
    t.detach();
    static std::atomic<int> seen{0};
    reset_hits();
    t.once_ms(1, [](std::atomic<int>* p) { p->store(7, std::memory_order_relaxed); count_hit(1); },
              &seen);  // relaxed: read after the count below
    wait_hits(1);
    EXPECT_EQ(seen.load(std::memory_order_relaxed), 7);  // relaxed: ordered by the count
    EXPECT_FALSE(t.active());
    // The function-pointer forms, old (explicit TArg) and new.
    reset_hits();
    t.attach_ms<int>(1, count_hit, 1);
    wait_hits(2);
    t.attach(0.001f, count_hit, 1);
    wait_hits(4);
    t.detach();
}

namespace {
void static_blink() { count_hit(1); }
void char_blink(char by) { count_hit(by); }

// example_class holds a Ticker whose lambda captures this, as the
// TickerFunctional example's ExampleClass does.
class example_class {
public:
    explicit example_class(std::uint32_t ms) { ticker_.attach_ms(ms, [this]() { blink(); }); }
    void blink() { count_hit(1); }
    Ticker ticker_;
};
}  // namespace

// The shapes of the Ticker library's TickerFunctional and TickerParameter
// examples: a plain function (also scheduled), a function plus a char
// argument, a member lambda.
TEST(esp8266_ticker_api, ticker_upstream_example_forms) {
    run_scheduled_functions();
    reset_hits();
    Ticker plain, scheduled, parameter;
    plain.attach_ms(1, static_blink);
    wait_hits(2);
    plain.detach();
    parameter.attach_ms(1, char_blink, static_cast<char>(1));
    wait_hits(4);
    parameter.detach();
    {
        example_class example(1);
        wait_hits(6);
    }
    const int before = hit_count();
    scheduled.once_ms_scheduled(1, static_blink);
    while (kairos::esp8266_compat::global_scheduler.pending() < 1) {
    }
    EXPECT_EQ(hit_count(), before);  // queued, not run, in the tick
    run_scheduled_functions();
    EXPECT_EQ(hit_count(), before + 1);
}

TEST(esp8266_ticker_api, ticker_attach_ms_scheduled_accurate_runs_in_yield) {
    run_scheduled_functions();
    ASSERT_EQ(get_scheduled_delay_us(), ~0u) << "no scheduled function may be pending";
    static int runs = 0;
    runs = 0;
    Ticker t;
    t.attach_ms_scheduled_accurate(1, [] { ++runs; });
    // Wait for the first tick to register the function (it is due at once),
    // without running the scheduler concurrently with the handler.
    while (get_scheduled_delay_us() != 0) {
        std::atomic_signal_fence(std::memory_order_seq_cst);  // re-read after each signal
    }
    t.detach();
    EXPECT_EQ(runs, 0);
    for (int i = 0; i < 3 && runs == 0; ++i) yield();  // not run_scheduled_functions()
    EXPECT_GE(runs, 1);
    const int after = runs;
    yield();
    EXPECT_EQ(runs, after);  // one run per tick, then removed
    EXPECT_EQ(get_scheduled_recurrent_delay_us(), ~0u);
}

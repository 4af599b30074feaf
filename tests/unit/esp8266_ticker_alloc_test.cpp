// SPDX-License-Identifier: MIT
// Ticker::*_scheduled allocates nothing in the tick path: a callable too
// large for a slot (or one whose copy allocates, like a std::function
// holding a large lambda) is converted once at attach time, and the tick,
// which runs in signal context, only queues a slot-sized callable. Counted
// with a replaced global operator new; ticks are awaited by count (the
// scheduler's queue length), never by time.
#include <gtest/gtest.h>

#include <Schedule.h>
#include <Ticker.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <new>

namespace {
// relaxed everywhere: a statistic read by the thread that the signal
// handler interrupts, after the fact.
std::atomic<std::uint64_t> allocations{0};
}  // namespace

// noinline: inlined into a caller, free() on operator new's result trips
// GCC's -Wmismatched-new-delete at -O2.
[[gnu::noinline]] void* operator new(std::size_t n) {
    allocations.fetch_add(1, std::memory_order_relaxed);  // relaxed: a count
    if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
    throw std::bad_alloc();
}
[[gnu::noinline]] void* operator new[](std::size_t n) { return ::operator new(n); }
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete[](void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace {

int runs = 0;
int first_seen = 0;  // the state each run found in its copy

// big is too large for a scheduler slot; it counts its own calls, so a run
// that got a fresh copy of the attached callable sees count 1.
struct big {
    char pad[200] = {};
    int count = 0;
    void operator()() {
        ++count;
        ++runs;
        if (count == 1) ++first_seen;
    }
};

// wait_queued(n) returns once n one-shot functions are queued: the ticks
// that queued them ran in this thread's signal handler meanwhile.
void wait_queued(std::size_t n) {
    while (kairos::esp8266_compat::global_scheduler.pending() < n) {
    }
}

constexpr std::size_t ticks = 5;  // below SCHEDULED_FN_MAX_COUNT: none refused

template <class F>
void expect_tick_path_allocates_nothing(F&& attach) {
    run_scheduled_functions();
    runs = 0;
    first_seen = 0;
    Ticker t;
    attach(t);  // converts at attach time: may allocate
    const std::uint64_t before = allocations.load(std::memory_order_relaxed);  // relaxed: a count
    wait_queued(ticks);
    const std::uint64_t after = allocations.load(std::memory_order_relaxed);  // relaxed: a count
    t.detach();
    EXPECT_EQ(after, before) << "the tick path allocated";
    const std::size_t queued = kairos::esp8266_compat::global_scheduler.pending();
    run_scheduled_functions();
    EXPECT_EQ(runs, static_cast<int>(queued));
    EXPECT_EQ(first_seen, runs) << "each run must get a fresh copy, as upstream";
}

}  // namespace

TEST(esp8266_ticker_alloc, scheduled_large_callable_allocates_nothing_per_tick) {
    expect_tick_path_allocates_nothing([](Ticker& t) { t.attach_ms_scheduled(1, big{}); });
}

TEST(esp8266_ticker_alloc, scheduled_std_function_allocates_nothing_per_tick) {
    // The std::function fits a slot, but copying it copies the large target.
    const std::function<void()> f = big{};
    expect_tick_path_allocates_nothing([&f](Ticker& t) { t.attach_ms_scheduled(1, f); });
}

TEST(esp8266_ticker_alloc, scheduled_small_callable_allocates_nothing_per_tick) {
    expect_tick_path_allocates_nothing([](Ticker& t) {
        t.attach_scheduled(0.001f, [] {
            ++runs;
            ++first_seen;
        });
    });
}

// SPDX-License-Identifier: MIT
// Host tests of kairos::deferred, timer_queue, polled_timeout and
// inplace_function: the portable scenarios plus what needs a host (operator
// new / malloc counting for the zero-allocation guarantee).
#include <gtest/gtest.h>

#include <kairos/deferred.hpp>
#include <kairos/inplace_function.hpp>

#include <atomic>
#include <cstdlib>
#include <functional>
#include <memory>
#include <new>

#include "deferred_scenarios.hpp"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
// Declared by the sanitizer runtimes (GCC ships no header for it).
extern "C" int __sanitizer_install_malloc_and_free_hooks(
    void (*malloc_hook)(const volatile void*, std::size_t), void (*free_hook)(const volatile void*));
#define KAIROS_TEST_MALLOC_HOOK 1
#else
#define KAIROS_TEST_MALLOC_HOOK 0
#endif

// ---- allocation counting ---------------------------------------------------
// Every operator new of the program goes through these replacements, and in
// sanitizer builds every malloc is seen by the sanitizer's allocation hook.
namespace {
std::atomic<bool> counting{false};
std::atomic<long> allocations{0};

void note_allocation() noexcept {
    // relaxed: counters read by the same thread after the counted region.
    if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
}

#if KAIROS_TEST_MALLOC_HOOK
void on_malloc(const volatile void*, std::size_t) { note_allocation(); }
void on_free(const volatile void*) {}
const int hooks_installed = __sanitizer_install_malloc_and_free_hooks(&on_malloc, &on_free);
#endif

// count_allocations(f) runs f and returns how many allocations it made.
template <class F>
long count_allocations(F&& f) {
    allocations.store(0, std::memory_order_relaxed);  // relaxed: see note_allocation
    counting.store(true, std::memory_order_seq_cst);  // seq_cst: fence the region
    f();
    counting.store(false, std::memory_order_seq_cst);  // seq_cst: fence the region
    return allocations.load(std::memory_order_relaxed);  // relaxed: same thread
}
}  // namespace

// GCC flags free() inside a replaced operator delete once it inlines both.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t n) {
#if !KAIROS_TEST_MALLOC_HOOK
    note_allocation();
#endif
    if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
#if !KAIROS_TEST_MALLOC_HOOK
    note_allocation();
#endif
    return std::malloc(n == 0 ? 1 : n);
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
#pragma GCC diagnostic pop

// ---- scenarios -------------------------------------------------------------

TEST(deferred, fifo_and_run_boundary) { scenarios::deferred_fifo_and_run_boundary(); }
TEST(deferred, self_rescheduling) { scenarios::deferred_self_rescheduling(); }
TEST(deferred, overflow_is_counted) { scenarios::deferred_overflow_is_counted(); }
TEST(deferred, destroys_callables) { scenarios::deferred_destroys_callables(); }
TEST(deferred, wake_hook) { scenarios::deferred_wake_hook(); }
TEST(deferred, wake_hook_recurrent) { scenarios::deferred_wake_hook_recurrent(); }
TEST(deferred, recurrent_period_and_skip) { scenarios::recurrent_period_and_skip(); }
TEST(deferred, recurrent_period_zero) { scenarios::recurrent_period_zero_runs_every_pass(); }
TEST(deferred, recurrent_long_periods) { scenarios::recurrent_long_periods_and_order(); }
TEST(deferred, recurrent_alarm) { scenarios::recurrent_alarm_runs_now_without_rephasing(); }
TEST(deferred, recurrent_reentrant) { scenarios::recurrent_reentrant_cancel_and_register(); }
TEST(deferred, one_shot_manages_recurrent) { scenarios::one_shot_manages_recurrent(); }
TEST(deferred, recurrent_pool_full) { scenarios::recurrent_pool_full_and_stale_handles(); }
TEST(deferred, clock_wraparound) { scenarios::recurrent_across_clock_wraparound(); }
TEST(timer_queue, order_and_due) { scenarios::timer_queue_order_and_due(); }
TEST(polled_timeout, one_shot_and_periodic_across_wrap) {
    scenarios::polled_timeout_one_shot_and_periodic_across_wrap();
}

// ---- zero allocations ------------------------------------------------------

TEST(deferred, allocation_counter_sees_allocations) {
    // The counter must be able to fail the tests below.
    const long n = count_allocations([] {
        static int* volatile sink;  // volatile: the new/delete pair may not be elided
        sink = new int(7);
        delete sink;
    });
    EXPECT_EQ(n, 1);
}

TEST(deferred, schedule_and_run_allocate_nothing) {
    kairos::deferred<64> d;
    int sum = 0;
    const std::function<void()> small_fn = [&sum] { sum += 100; };  // built outside
    auto owned = std::make_unique<int>(5);
    const long n = count_allocations([&] {
        for (int i = 0; i < 20; ++i) {
            EXPECT_TRUE(d.schedule([&sum, i] { sum += i; }));
        }
        EXPECT_TRUE(d.schedule(small_fn));  // a std::function copied into the slot
        EXPECT_TRUE(d.schedule([p = std::move(owned), &sum] { sum += *p; }));  // move-only
        void (*fp)() = [] {};
        EXPECT_TRUE(d.schedule(fp));
        while (d.schedule([] {})) {
        }
        EXPECT_EQ(d.overflows(), 1u);
        d.run();
        d.run();
    });
    EXPECT_EQ(n, 0);
    EXPECT_EQ(sum, 190 + 100 + 5);
}

TEST(deferred, recurrent_passes_allocate_nothing) {
    scenarios::fake_clock c;
    kairos::deferred<4, 32> d(c.source());
    int runs = 0;
    const long n = count_allocations([&] {
        for (int i = 0; i < 32; ++i) {
            EXPECT_TRUE(d.schedule_recurrent([&runs] { ++runs; return true; },
                                             static_cast<std::uint64_t>(i + 1) * 10));
        }
        for (int t = 0; t < 1000; ++t) {
            c.now += 7;
            d.run_recurrent();
        }
    });
    EXPECT_EQ(n, 0);
    EXPECT_GT(runs, 1000);
}

// ---- inplace_function ------------------------------------------------------

TEST(inplace_function, empty_move_reset) {
    kairos::inplace_function<int(int)> f;
    EXPECT_FALSE(f);
    f = [](int x) { return x * 2; };
    ASSERT_TRUE(f);
    EXPECT_EQ(f(21), 42);
    auto g = std::move(f);
    EXPECT_FALSE(f);
    EXPECT_EQ(g(4), 8);
    g = nullptr;
    EXPECT_FALSE(g);
    int (*null_fp)(int) = nullptr;
    kairos::inplace_function<int(int)> h(null_fp);
    EXPECT_FALSE(h);
    std::function<int(int)> empty_std;
    kairos::inplace_function<int(int)> k(empty_std);
    EXPECT_FALSE(k);
}

TEST(inplace_function, non_trivial_callables_are_moved_and_destroyed_once) {
    auto token = std::make_shared<int>(3);
    {
        kairos::inplace_function<int()> f = [token] { return *token; };
        EXPECT_EQ(token.use_count(), 2);
        kairos::inplace_function<int()> g = std::move(f);
        EXPECT_EQ(token.use_count(), 2);
        EXPECT_EQ(g(), 3);
        g.reset();
        EXPECT_EQ(token.use_count(), 1);
        g = [token] { return *token + 1; };
    }
    EXPECT_EQ(token.use_count(), 1);
}

TEST(inplace_function, mutable_state_is_kept) {
    kairos::inplace_function<int()> counter = [n = 0]() mutable { return ++n; };
    EXPECT_EQ(counter(), 1);
    EXPECT_EQ(counter(), 2);
}

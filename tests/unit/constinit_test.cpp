// SPDX-License-Identifier: MIT
// Global rings, deferred schedulers, work queues and their parts are
// constant-initialized to all-zero bytes: firmware declares them as
// globals, and a constructor that is not a constant expression (or one
// whose result is not all zero) costs start-up code or .data
// (docs/targets.md, "Code size").
//
// Two checks, each of which fails when that property is lost:
//   - KAIROS_TEST_CONSTINIT (GCC __constinit, clang's
//     require_constant_initialization) makes this file fail to COMPILE if a
//     global below would need dynamic initialization;
//   - zero_state checks at run time, before first use, that each global's
//     object representation is all zero (so it sits in .bss), then uses it
//     from that state across several laps of its indices.
#include <kairos/deferred.hpp>
#include <kairos/inplace_function.hpp>
#include <kairos/kernel/work_queue.hpp>
#include <kairos/mpsc_ring.hpp>
#include <kairos/spsc_ring.hpp>
#include <kairos/spsc_slot_ring.hpp>
#include <kairos/timer_queue.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <memory>

#if defined(__clang__)
#    define KAIROS_TEST_CONSTINIT [[clang::require_constant_initialization]]
#elif defined(__GNUC__)
#    define KAIROS_TEST_CONSTINIT __constinit
#else
#    error "constinit_test needs a compiler that can require constant initialization"
#endif

namespace {

// tracked is a non-trivial element: the rings' destructors and slots must
// stay constant-initializable for it too.
struct tracked {
    static inline int live = 0;
    std::uint32_t v;
    explicit tracked(std::uint32_t x) noexcept : v(x) { ++live; }
    tracked(tracked&& o) noexcept : v(o.v) { ++live; }
    tracked& operator=(tracked&& o) noexcept {
        v = o.v;
        return *this;
    }
    ~tracked() { --live; }
};

KAIROS_TEST_CONSTINIT kairos::spsc_ring<std::uint32_t, 16> g_spsc;
KAIROS_TEST_CONSTINIT kairos::spsc_ring<tracked, 4, std::uint8_t> g_spsc_tracked;
KAIROS_TEST_CONSTINIT kairos::spsc_slot_ring<std::uint32_t, 16> g_slot;
KAIROS_TEST_CONSTINIT kairos::mpsc_ring<std::uint32_t, 16> g_mpsc;
KAIROS_TEST_CONSTINIT kairos::mpsc_ring<tracked, 2> g_mpsc_tracked;
KAIROS_TEST_CONSTINIT kairos::deferred<16, 8> g_deferred;
KAIROS_TEST_CONSTINIT kairos::timer_queue<8> g_timers;
KAIROS_TEST_CONSTINIT kairos::detail::clist g_list;
KAIROS_TEST_CONSTINIT kairos::inplace_function<int(int)> g_fn;
KAIROS_TEST_CONSTINIT kairos::work_queue<8> g_work_queue;

// all_zero(obj) is true when every byte of obj's representation is zero.
template <class T>
bool all_zero(const T& obj) {
    const auto* p = reinterpret_cast<const unsigned char*>(std::addressof(obj));
    for (std::size_t i = 0; i < sizeof(T); ++i) {
        if (p[i] != 0) return false;
    }
    return true;
}

// This test must run before the others touch the globals: gtest runs the
// tests of one file in definition order, and nothing else uses them.
TEST(constinit, zero_state_before_first_use) {
    EXPECT_TRUE(all_zero(g_spsc));
    EXPECT_TRUE(all_zero(g_spsc_tracked));
    EXPECT_TRUE(all_zero(g_slot));
    EXPECT_TRUE(all_zero(g_mpsc));
    EXPECT_TRUE(all_zero(g_mpsc_tracked));
    EXPECT_TRUE(all_zero(g_deferred));
    EXPECT_TRUE(all_zero(g_timers));
    EXPECT_TRUE(all_zero(g_list));
    EXPECT_TRUE(all_zero(g_fn));
    EXPECT_TRUE(all_zero(g_work_queue));
}

// ring_laps(q, cap): from the zero state, fill to capacity (the next push
// is refused and counted), drain in order, and repeat for five laps of the
// slot array, so every slot's sequence number goes through several laps.
template <class Ring>
void ring_laps(Ring& q, std::uint32_t cap) {
    std::uint32_t next_in = 0, next_out = 0;
    for (int lap = 0; lap < 5; ++lap) {
        for (std::uint32_t i = 0; i < cap; ++i) ASSERT_TRUE(q.try_push(next_in++));
        const std::uint32_t failed = q.failed_pushes();
        ASSERT_FALSE(q.try_push(12345u));
        ASSERT_EQ(q.failed_pushes(), failed + 1);
        std::uint32_t v = 0;
        for (std::uint32_t i = 0; i < cap; ++i) {
            ASSERT_TRUE(q.try_pop(v));
            ASSERT_EQ(v, next_out++);
        }
        ASSERT_FALSE(q.try_pop(v));
    }
}

TEST(constinit, rings_work_from_the_zero_state) {
    ring_laps(g_spsc, 16);
    ring_laps(g_slot, 16);
    ring_laps(g_mpsc, 16);
}

TEST(constinit, tracked_elements_from_the_zero_state) {
    for (std::uint32_t i = 0; i < 9; ++i) {  // > 2 laps of each ring
        ASSERT_TRUE(g_spsc_tracked.try_emplace(i));
        ASSERT_TRUE(g_mpsc_tracked.try_emplace(i));
        ASSERT_EQ(tracked::live, 2);
        tracked out{0};
        ASSERT_TRUE(g_spsc_tracked.try_pop(out));
        EXPECT_EQ(out.v, i);
        ASSERT_TRUE(g_mpsc_tracked.try_pop(out));
        EXPECT_EQ(out.v, i);
    }
    EXPECT_EQ(tracked::live, 0);
}

TEST(constinit, deferred_from_the_zero_state) {
    int ran = 0;
    for (int i = 0; i < 16; ++i) ASSERT_TRUE(g_deferred.schedule([&ran] { ++ran; }));
    EXPECT_FALSE(g_deferred.schedule([&ran] { ++ran; }));  // full: refused, counted
    EXPECT_EQ(g_deferred.overflows(), 1u);
    EXPECT_EQ(g_deferred.run(), 16u);
    EXPECT_EQ(ran, 16);

    // Recurrent entries: the zero state hands out never-used entries first,
    // then released ones. Period 0 runs on every pass (port clock).
    using handle = decltype(g_deferred)::handle;
    handle h[8];
    int calls = 0;
    for (auto& x : h) {
        x = g_deferred.schedule_recurrent([&calls] { ++calls; return true; }, 0);
        ASSERT_TRUE(x.active());
    }
    EXPECT_FALSE(g_deferred.schedule_recurrent([] { return true; }, 0));  // pool full
    EXPECT_EQ(g_deferred.recurrent_overflows(), 1u);
    EXPECT_EQ(g_deferred.run_recurrent(), 8u);
    EXPECT_TRUE(h[3].cancel());
    EXPECT_FALSE(h[3].active());
    EXPECT_EQ(g_deferred.recurrent_count(), 7u);  // the consumer frees the cancelled entry
    handle again = g_deferred.schedule_recurrent([&calls] { ++calls; return false; }, 0);
    EXPECT_TRUE(again.active());
    EXPECT_FALSE(h[3].active());  // the reused entry's old handle stays stale
    EXPECT_EQ(g_deferred.run_recurrent(), 8u);
    EXPECT_EQ(calls, 16);
    EXPECT_FALSE(again.active());  // it returned false: removed
    for (auto& x : h) (void)x.cancel();
    EXPECT_EQ(g_deferred.recurrent_count(), 0u);
}

}  // namespace

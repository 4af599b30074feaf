// SPDX-License-Identifier: MIT
// circular_queue / circular_queue_mp: the ESP8266 / EspSoftwareSerial API
// through the compat header (unqualified names), the fixed defects (FIFO
// requeue, no sentinel, resize, move, exact capacity) and element lifetimes.
#include "circular_queue/circular_queue_mp.h"  // as EspSoftwareSerial code does

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "ring_scenarios.hpp"  // scenarios::counted

namespace {

using scenarios::counted;

template <class Q>
struct cq : ::testing::Test {};
using queues = ::testing::Types<circular_queue<int>, circular_queue_mp<int>>;
TYPED_TEST_SUITE(cq, queues);

// The names resolve to kairos' types: the compat header is a thin alias.
static_assert(std::is_same_v<circular_queue<int>, kairos::circular_queue<int>>);
static_assert(std::is_same_v<circular_queue_mp<int>, kairos::circular_queue_mp<int>>);
static_assert(!std::is_copy_constructible_v<circular_queue<int>>);
static_assert(std::is_nothrow_move_constructible_v<circular_queue<int>>);
static_assert(std::is_nothrow_move_assignable_v<circular_queue_mp<int>>);

TYPED_TEST(cq, exact_capacity_and_counts) {
    for (std::size_t cap : {1u, 2u, 3u, 10u, 16u, 17u}) {
        TypeParam q(cap);
        EXPECT_EQ(q.capacity(), cap);
        EXPECT_EQ(q.available_for_push(), cap);
        for (std::size_t i = 0; i < cap; ++i) EXPECT_TRUE(q.push(static_cast<int>(i)));
        EXPECT_FALSE(q.push(99));
        EXPECT_EQ(q.failed_pushes(), 1u);
        EXPECT_EQ(q.available(), cap);
        EXPECT_EQ(q.available_for_push(), 0u);
        for (int round = 0; round < 40; ++round) {  // wrap many times at a non-2^n capacity
            int v = -1;
            ASSERT_TRUE(q.try_pop(v));
            EXPECT_TRUE(q.push(v));
            EXPECT_FALSE(q.push(99));
        }
        for (std::size_t i = 0; i < cap; ++i) {
            int v = -1;
            ASSERT_TRUE(q.try_pop(v));
            EXPECT_EQ(v, static_cast<int>((i + 40) % cap));
        }
        EXPECT_EQ(q.available(), 0u);
    }
}

TYPED_TEST(cq, pop_peek_and_sentinel_free_try_pop) {
    TypeParam q(4);
    EXPECT_EQ(q.pop(), 0);   // the original's T{} on empty, kept for compatibility
    EXPECT_EQ(q.peek(), 0);
    int v = 7;
    EXPECT_FALSE(q.try_pop(v));  // the honest form: empty is not a value
    EXPECT_EQ(v, 7);
    ASSERT_TRUE(q.push(0));  // a real 0 is distinguishable via try_pop
    EXPECT_EQ(q.peek(), 0);
    EXPECT_EQ(q.available(), 1u);
    EXPECT_TRUE(q.try_pop(v));
    EXPECT_EQ(v, 0);
    ASSERT_TRUE(q.push(5));
    ASSERT_NE(q.front(), nullptr);
    EXPECT_EQ(*q.front(), 5);
    EXPECT_EQ(q.pop(), 5);
}

TYPED_TEST(cq, push_n_pop_n_flush) {
    TypeParam q(10);
    const int in[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    EXPECT_EQ(q.push_n(in, 7), 7u);
    int out[12] = {};
    EXPECT_EQ(q.pop_n(out, 5), 5u);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(out[i], i);
    EXPECT_EQ(q.push_n(in + 7, 5), 5u);  // across the wrap of the slot array
    EXPECT_EQ(q.push_n(in, 12), 3u);     // partial: counted once
    EXPECT_EQ(q.failed_pushes(), 1u);
    EXPECT_EQ(q.pop_n(nullptr, 2), 2u);  // nullptr discards
    EXPECT_EQ(q.pop_n(out, 12), 8u);
    const int expect[8] = {7, 8, 9, 10, 11, 0, 1, 2};
    for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], expect[i]);
    EXPECT_EQ(q.push_n(in, 4), 4u);
    q.flush();
    EXPECT_EQ(q.available(), 0u);
    EXPECT_EQ(q.available_for_push(), 10u);
}

TYPED_TEST(cq, for_each_is_fifo_and_drains) {
    TypeParam q(8);
    for (int i = 0; i < 6; ++i) ASSERT_TRUE(q.push(i));
    std::vector<int> seen;
    q.for_each([&](int&& v) { seen.push_back(v); });
    EXPECT_EQ(seen, (std::vector<int>{0, 1, 2, 3, 4, 5}));
    EXPECT_EQ(q.available(), 0u);
}

TYPED_TEST(cq, requeue_visits_fifo_and_keeps_order) {
    TypeParam q(8);
    EXPECT_FALSE(q.for_each_requeue([](int&) { return true; }));  // empty: false, as before
    for (int i = 0; i < 8; ++i) ASSERT_TRUE(q.push(i));
    std::vector<int> visited;
    EXPECT_TRUE(q.for_each_requeue([&](int& v) {
        visited.push_back(v);
        v *= 10;              // in-place update survives the requeue
        return v % 20 == 0;   // keep the even ones
    }));
    EXPECT_EQ(visited, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));  // FIFO, not newest first
    EXPECT_EQ(q.available(), 4u);
    EXPECT_EQ(q.available_for_push(), 4u);  // dropped slots are free again
    for (int i = 100; i < 104; ++i) EXPECT_TRUE(q.push(i));
    std::vector<int> rest;
    q.for_each([&](int&& v) { rest.push_back(v); });
    EXPECT_EQ(rest, (std::vector<int>{0, 20, 40, 60, 100, 101, 102, 103}));
    // The original's name keeps compiling and now also visits oldest first.
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(q.push(i));
    visited.clear();
    EXPECT_TRUE(q.for_each_rev_requeue([&](int& v) {
        visited.push_back(v);
        return true;
    }));
    EXPECT_EQ(visited, (std::vector<int>{0, 1, 2}));
}

// The EspSoftwareSerial callback form: a function pointer plus an object.
struct sink {
    int sum = 0;
    static void add(sink* s, int&& v) { s->sum += v; }
    static bool keep_small(sink* s, int& v) {
        ++s->sum;
        return v < 2;
    }
};
struct derived_sink : sink {};  // EspSoftwareSerial passes `this` of a derived class
TEST(circular_queue, for_each_arg_callbacks) {
    circular_queue<int, sink*> q(4);
    for (int i = 0; i < 4; ++i) ASSERT_TRUE(q.push(i));
    derived_sink s;
    EXPECT_TRUE(q.for_each_requeue(&sink::keep_small, &s));
    EXPECT_EQ(s.sum, 4);
    EXPECT_EQ(q.available(), 2u);
    s.sum = 0;
    q.for_each(&sink::add, &s);
    EXPECT_EQ(s.sum, 0 + 1);
    circular_queue_mp<int, sink*> m(4);
    ASSERT_TRUE(m.push(3));
    m.for_each(&sink::add, &s);
    EXPECT_EQ(s.sum, 4);
}

TEST(circular_queue, pushpeek_fills_in_place_then_push_commits) {
    circular_queue<std::uint8_t> q(2);
    q.pushpeek() = 0x01;
    q.pushpeek() |= 0x80;  // EspSoftwareSerial builds parity bytes this way
    EXPECT_EQ(q.available(), 0u);  // not visible before push()
    EXPECT_TRUE(q.push());
    EXPECT_EQ(q.available(), 1u);
    EXPECT_EQ(q.pop(), 0x81);
    ASSERT_TRUE(q.push(std::uint8_t{1}));
    ASSERT_TRUE(q.push(std::uint8_t{2}));
    q.pushpeek() = 3;
    EXPECT_FALSE(q.push());  // full: the element stays pending
    EXPECT_EQ(q.pop(), 1);
    EXPECT_TRUE(q.push());   // now it fits, with its value intact
    EXPECT_EQ(q.pop(), 2);
    EXPECT_EQ(q.pop(), 3);
}

TYPED_TEST(cq, resize_keeps_elements_in_order) {
    TypeParam q(4);
    for (int i = 0; i < 4; ++i) ASSERT_TRUE(q.push(i));
    int v;
    ASSERT_TRUE(q.try_pop(v));
    ASSERT_TRUE(q.push(4));  // the live range now wraps the slot array
    EXPECT_FALSE(q.capacity(3));  // 4 queued: refused, nothing changes
    EXPECT_EQ(q.capacity(), 4u);
    EXPECT_TRUE(q.capacity(9));
    EXPECT_EQ(q.capacity(), 9u);
    EXPECT_EQ(q.available(), 4u);
    for (int i = 5; i < 10; ++i) EXPECT_TRUE(q.push(i));
    EXPECT_FALSE(q.push(10));
    for (int i = 1; i < 10; ++i) {
        ASSERT_TRUE(q.try_pop(v));
        EXPECT_EQ(v, i);
    }
    EXPECT_TRUE(q.capacity(0));
    EXPECT_FALSE(q.push(1));
    EXPECT_TRUE(q.capacity(2));
    EXPECT_TRUE(q.push(1));
}

TYPED_TEST(cq, move_construct_and_assign) {
    TypeParam a(3);
    ASSERT_TRUE(a.push(1));
    ASSERT_TRUE(a.push(2));
    TypeParam b(std::move(a));
    EXPECT_EQ(a.capacity(), 0u);  // moved-from: valid, empty, capacity 0
    EXPECT_FALSE(a.push(9));
    EXPECT_EQ(b.capacity(), 3u);
    EXPECT_EQ(b.available(), 2u);
    TypeParam c(5);
    ASSERT_TRUE(c.push(7));
    c = std::move(b);
    EXPECT_EQ(c.capacity(), 3u);
    int v;
    ASSERT_TRUE(c.try_pop(v));
    EXPECT_EQ(v, 1);
    ASSERT_TRUE(c.try_pop(v));
    EXPECT_EQ(v, 2);
    EXPECT_FALSE(c.try_pop(v));
    TypeParam d;  // the default queue: capacity 0, every push refused
    EXPECT_EQ(d.capacity(), 0u);
    EXPECT_FALSE(d.push(1));
    EXPECT_FALSE(d.try_pop(v));
    EXPECT_EQ(d.available(), 0u);
}

// No element is built up front, none outlives the queue, resize and move
// neither leak nor double-destroy, dropped requeue elements are destroyed.
template <class Q>
void lifetimes() {
    const int before = counted::live();
    {
        Q q(5);
        EXPECT_EQ(counted::live(), before);
        for (std::uint32_t i = 0; i < 5; ++i) ASSERT_TRUE(q.try_emplace(i));
        EXPECT_EQ(counted::live(), before + 5);
        q.for_each_requeue([](counted& c) { return c.v != 2; });
        EXPECT_EQ(counted::live(), before + 4);
        ASSERT_TRUE(q.capacity(12));
        EXPECT_EQ(counted::live(), before + 4);
        Q r(std::move(q));
        EXPECT_EQ(counted::live(), before + 4);
        Q s(1);
        s = std::move(r);
        EXPECT_EQ(counted::live(), before + 4);
        (void)s.pop_n(nullptr, 1);
        EXPECT_EQ(counted::live(), before + 3);
    }
    EXPECT_EQ(counted::live(), before);
}
TEST(circular_queue, element_lifetimes) { lifetimes<circular_queue<counted>>(); }
TEST(circular_queue_mp, element_lifetimes) { lifetimes<circular_queue_mp<counted>>(); }

TEST(circular_queue, move_only_elements) {
    circular_queue<std::unique_ptr<int>> q(2);
    EXPECT_TRUE(q.push(std::make_unique<int>(4)));
    auto p = std::make_unique<int>(5);
    EXPECT_TRUE(q.push(std::move(p)));
    auto extra = std::make_unique<int>(6);
    EXPECT_FALSE(q.push(std::move(extra)));
    EXPECT_NE(extra, nullptr);  // handed back
    EXPECT_EQ(*q.pop(), 4);
    EXPECT_EQ(*q.pop(), 5);
}

TEST(circular_queue, strings_survive_resize_and_move) {
    circular_queue<std::string> q(2);
    ASSERT_TRUE(q.push(std::string(40, 'a')));
    ASSERT_TRUE(q.push("b"));
    ASSERT_TRUE(q.capacity(3));
    circular_queue<std::string> r(std::move(q));
    EXPECT_EQ(r.pop(), std::string(40, 'a'));
    EXPECT_EQ(r.pop(), "b");
}

// Two producers into circular_queue_mp with one consumer: every element
// arrives once, in order per producer.
TEST(circular_queue_mp, two_producers_in_order) {
    circular_queue_mp<std::uint32_t> q(7);  // not a power of two: exact limit path
    constexpr std::uint32_t per = 20000;
    auto producer = [&](std::uint32_t id) {
        for (std::uint32_t i = 0; i < per;) {
            if (q.push((id << 24) | i)) ++i;
        }
    };
    std::thread a(producer, 1), b(producer, 2);
    std::uint32_t next[3] = {0, 0, 0};
    for (std::uint32_t got = 0; got < 2 * per;) {
        std::uint32_t v;
        if (!q.try_pop(v)) continue;
        ASSERT_LE(q.available(), 7u);
        const std::uint32_t id = v >> 24;
        ASSERT_TRUE(id == 1 || id == 2);
        ASSERT_EQ(v & 0xFFFFFFu, next[id]);
        ++next[id];
        ++got;
    }
    a.join();
    b.join();
    EXPECT_EQ(next[1], per);
    EXPECT_EQ(next[2], per);
}

}  // namespace

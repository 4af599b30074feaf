// SPDX-License-Identifier: MIT
// Portable single-context scenarios for spsc_ring and mpsc_ring (and any
// ring with their API). Each scenario is a template over a variant V:
//
//   V::template ring<T>   a ring of T, constructible from V::index (start)
//   V::n                  its capacity
//   V::index              its index type
//   V::start              the first index value (near the wrap for wide
//                         indices, so every run crosses it)
//
// Checks use KT_CHECK only, so the same code runs under GoogleTest on the
// host and on microcontrollers under QEMU. No heap.
#pragma once

#include <kairos/mpsc_ring.hpp>
#include <kairos/spsc_ring.hpp>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "ktest.hpp"

namespace scenarios {

// variant<Ring, N, Index, Start> describes one ring configuration; spsc<>
// and mpsc<> are the variants of the typed tests.
template <template <class, std::size_t, class> class Ring, std::size_t N, class Index,
          Index Start>
struct variant {
    template <class T>
    using ring = Ring<T, N, Index>;
    using index = Index;
    static constexpr std::size_t n = N;
    static constexpr Index start = Start;
};
template <std::size_t N, class Index, Index Start = 0>
using spsc = variant<kairos::spsc_ring, N, Index, Start>;
template <std::size_t N, class Index, Index Start = 0>
using mpsc = variant<kairos::mpsc_ring, N, Index, Start>;

// counted tracks live instances: every constructor adds one, every
// destructor removes one; it has no default constructor.
struct counted {
    static int& live() {
        static int n = 0;
        return n;
    }
    std::uint32_t v;
    explicit counted(std::uint32_t x) noexcept : v(x) { ++live(); }
    counted(const counted& o) noexcept : v(o.v) { ++live(); }
    counted(counted&& o) noexcept : v(o.v) { ++live(); }
    counted& operator=(const counted&) noexcept = default;
    counted& operator=(counted&&) noexcept = default;
    ~counted() { --live(); }
};

// move_only owns a "resource" (a non-zero id) that a move transfers.
struct move_only {
    std::uint32_t id = 0;
    explicit move_only(std::uint32_t x) noexcept : id(x) {}
    move_only(move_only&& o) noexcept : id(o.id) { o.id = 0; }
    move_only& operator=(move_only&& o) noexcept {
        id = o.id;
        o.id = 0;
        return *this;
    }
    move_only(const move_only&) = delete;
    move_only& operator=(const move_only&) = delete;
};

// ring_fill_drain: exactly n elements fit, the next push fails and is
// counted, elements come out in order, and an empty ring says so.
template <class V>
void ring_fill_drain() {
    typename V::template ring<std::uint32_t> r(V::start);
    KT_CHECK(r.empty());
    KT_CHECK_EQ(r.size(), 0u);
    KT_CHECK_EQ(r.capacity(), V::n);
    for (std::uint32_t i = 0; i < V::n; ++i) {
        KT_CHECK(r.try_push(i));
        KT_CHECK_EQ(r.size(), i + 1u);
    }
    KT_CHECK(!r.try_push(std::uint32_t{99}));
    KT_CHECK(!r.try_emplace(99u));
    KT_CHECK_EQ(r.failed_pushes(), 2u);
    KT_CHECK_EQ(r.size(), V::n);
    std::uint32_t v = 0;
    for (std::uint32_t i = 0; i < V::n; ++i) {
        KT_CHECK(r.try_pop(v));
        KT_CHECK_EQ(v, i);
    }
    KT_CHECK(!r.try_pop(v));
    KT_CHECK(r.empty());
    KT_CHECK(r.front() == nullptr);
}

// ring_wraparound: random bursts of pushes and pops for several times the
// index range (uint8_t) or across the wrap point (wide index with a start
// near the top), checking order and the fill level all the way.
template <class V>
void ring_wraparound(std::uint32_t ops = 5000) {
    typename V::template ring<std::uint32_t> r(V::start);
    ktest::rng g(42);
    std::uint32_t next_in = 0, next_out = 0;
    for (std::uint32_t step = 0; step < ops; ++step) {
        const auto pushes = static_cast<std::uint32_t>(g.next32() % (V::n + 1));
        for (std::uint32_t i = 0; i < pushes; ++i) {
            const bool fits = next_in - next_out < V::n;
            KT_CHECK_EQ(r.try_push(next_in), fits);
            if (fits) ++next_in;
        }
        KT_CHECK_EQ(r.size(), next_in - next_out);
        const auto pops = static_cast<std::uint32_t>(g.next32() % (V::n + 1));
        for (std::uint32_t i = 0; i < pops; ++i) {
            std::uint32_t v = 0xFFFFFFFFu;
            const bool any = next_in != next_out;
            KT_CHECK_EQ(r.try_pop(v), any);
            if (any) KT_CHECK_EQ(v, next_out++);
        }
    }
}

// ring_counted: no element constructed by the ring outlives it, none is
// destroyed twice, and the ring never creates one it was not given (no
// default-constructed slots: counted has no default constructor).
template <class V>
void ring_counted() {
    const int before = counted::live();
    {
        typename V::template ring<counted> r(V::start);
        KT_CHECK_EQ(counted::live(), before);  // raw storage: nothing built up front
        const std::size_t k = V::n > 1 ? V::n - 1 : 1;
        for (std::uint32_t i = 0; i < k; ++i) KT_CHECK(r.try_emplace(i));
        KT_CHECK_EQ(counted::live(), before + static_cast<int>(k));
        {
            counted c(1000);
            KT_CHECK_EQ(r.try_push(c), k < V::n);  // full only when k == n
        }
        counted out(0);
        KT_CHECK(r.try_pop(out));
        KT_CHECK_EQ(out.v, 0u);
        const int live_now = counted::live();
        auto* f = r.front();
        if (V::n == 1) {
            KT_CHECK(f == nullptr);  // the one element is gone, the extra did not fit
        } else {
            KT_REQUIRE(f != nullptr);
            KT_CHECK_EQ(f->v, k > 1 ? 1u : 1000u);  // the second element pushed
            r.pop();
            KT_CHECK_EQ(counted::live(), live_now - 1);
        }
        // The rest stays queued and must be destroyed by the ring.
    }
    KT_CHECK_EQ(counted::live(), before);
}

// ring_move_only: move-only elements go in and come out; a failed move-push
// leaves its argument intact.
template <class V>
void ring_move_only() {
    typename V::template ring<move_only> r(V::start);
    for (std::uint32_t i = 1; i <= V::n; ++i) {
        move_only m(i);
        KT_CHECK(r.try_push(std::move(m)));
        KT_CHECK_EQ(m.id, 0u);  // moved from
    }
    move_only extra(77);
    KT_CHECK(!r.try_push(std::move(extra)));
    KT_CHECK_EQ(extra.id, 77u);  // handed back untouched
    move_only out(0);
    for (std::uint32_t i = 1; i <= V::n; ++i) {
        KT_CHECK(r.try_pop(out));
        KT_CHECK_EQ(out.id, i);
    }
}

// ring_front_pop: front() is zero-copy and idempotent; pop() removes.
template <class V>
void ring_front_pop() {
    typename V::template ring<std::uint32_t> r(V::start);
    KT_CHECK(r.front() == nullptr);
    KT_CHECK(r.try_push(5u));
    std::uint32_t* a = r.front();
    std::uint32_t* b = r.front();
    KT_REQUIRE(a != nullptr);
    KT_CHECK(a == b);
    KT_CHECK_EQ(*a, 5u);
    *a = 6u;  // in place
    std::uint32_t v = 0;
    KT_CHECK(r.try_pop(v));
    KT_CHECK_EQ(v, 6u);
    KT_CHECK(r.front() == nullptr);
    // Interleave front/pop with pushes across a few laps.
    std::uint32_t in = 0, out = 0;
    for (std::uint32_t lap = 0; lap < 4 * V::n + 3; ++lap) {
        while (r.try_push(in)) ++in;
        const std::uint32_t* f = r.front();
        KT_REQUIRE(f != nullptr);
        KT_CHECK_EQ(*f, out);
        r.pop();
        ++out;
    }
}

// ring_batch: push_n/pop_n across the wrap, partial batches when the ring
// is nearly full or nearly empty.
template <class V>
void ring_batch() {
    typename V::template ring<std::uint32_t> r(V::start);
    std::uint32_t src[2 * V::n + 2];
    std::uint32_t dst[2 * V::n + 2];
    std::uint32_t in = 0, out = 0;
    // Move the indices to just before the physical end of the buffer.
    for (std::size_t i = 0; i + 1 < V::n; ++i) {
        KT_CHECK(r.try_push(in++));
        std::uint32_t v;
        KT_CHECK(r.try_pop(v));
        ++out;
    }
    for (std::uint32_t round = 0; round < 8; ++round) {
        const std::size_t want = (round % 3 == 0) ? V::n + 2 : (round % 3 == 1 ? V::n : 1);
        for (std::size_t i = 0; i < want; ++i) src[i] = in + static_cast<std::uint32_t>(i);
        const std::size_t fits = V::n - (in - out);
        const std::size_t expect = want < fits ? want : fits;
        const std::uint32_t failed = r.failed_pushes();
        KT_CHECK_EQ(r.push_n(src, want), expect);
        KT_CHECK_EQ(r.failed_pushes(), failed + (expect < want ? 1u : 0u));
        in += static_cast<std::uint32_t>(expect);
        const std::size_t take = round % 2 ? V::n + 2 : (V::n + 1) / 2;
        const std::size_t have = in - out;
        const std::size_t got = r.pop_n(dst, take);
        KT_CHECK_EQ(got, take < have ? take : have);
        for (std::size_t i = 0; i < got; ++i) KT_CHECK_EQ(dst[i], out + i);
        out += static_cast<std::uint32_t>(got);
        KT_CHECK_EQ(r.size(), in - out);
    }
}

// ring_consume_requeue: consume() visits in order; requeue() keeps FIFO
// order of the kept elements, frees the dropped ones, and kept elements
// stay ahead of later pushes.
template <class V>
void ring_consume_requeue() {
    const int before = counted::live();
    {
        typename V::template ring<counted> r(V::start);
        for (std::uint32_t i = 0; i < V::n; ++i) KT_CHECK(r.try_emplace(i));
        std::uint32_t expect = 0;
        std::uint32_t visited = 0;
        // requeue: keep the odd values, visiting 0, 1, 2, ... in order.
        const std::size_t kept = r.requeue([&](counted& c) {
            KT_CHECK_EQ(c.v, expect++);
            ++visited;
            return (c.v & 1u) != 0;
        });
        KT_CHECK_EQ(visited, V::n);
        KT_CHECK_EQ(kept, V::n / 2);
        KT_CHECK_EQ(r.size(), V::n / 2);
        KT_CHECK_EQ(counted::live(), before + static_cast<int>(V::n / 2));
        // Space freed by the dropped elements is usable; new ones go behind.
        std::uint32_t pushed = 0;
        while (r.try_emplace(1000u + pushed)) ++pushed;
        KT_CHECK_EQ(pushed, V::n - V::n / 2);
        std::uint32_t odd = 1, late = 1000;
        const std::size_t n = r.consume([&](counted&& c) {
            if (c.v < 1000u) {
                KT_CHECK_EQ(c.v, odd);
                odd += 2;
            } else {
                KT_CHECK_EQ(c.v, late++);
            }
        });
        KT_CHECK_EQ(n, V::n);
        KT_CHECK(r.empty());
        // Keep everything: nothing moves, nothing is freed.
        for (std::uint32_t i = 0; i < V::n; ++i) KT_CHECK(r.try_emplace(i));
        KT_CHECK_EQ(r.requeue([](counted&) { return true; }), V::n);
        KT_CHECK_EQ(r.size(), V::n);
        // Drop everything.
        KT_CHECK_EQ(r.requeue([](counted&) { return false; }), 0u);
        KT_CHECK(r.empty());
    }
    KT_CHECK_EQ(counted::live(), before);
}

// ring_all runs every single-context scenario on variant V.
template <class V>
void ring_all() {
    ring_fill_drain<V>();
    ring_wraparound<V>();
    ring_counted<V>();
    ring_move_only<V>();
    ring_front_pop<V>();
    ring_batch<V>();
    ring_consume_requeue<V>();
}

}  // namespace scenarios

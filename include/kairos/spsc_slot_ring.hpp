// SPDX-License-Identifier: MIT
// kairos/spsc_slot_ring.hpp: bounded single-producer single-consumer ring
// signalled through its slots, for the lowest hand-over latency.
//
// kairos::spsc_slot_ring<T, N, Index> holds up to N elements of T in the
// object (no heap). Each slot carries its own state word next to the
// element: the producer publishes an element by advancing the slot's word,
// the consumer frees the slot the same way, and neither side ever reads the
// other side's index. A message in flight therefore moves one cache line
// from producer to consumer (the slot), where spsc_ring moves two (its head
// index, then the slot). Both sides are wait-free and use only plain atomic
// loads and stores (no read-modify-write, no fences), so either side may run
// in an interrupt handler or a POSIX signal handler.
//
// Choose spsc_ring for streaming and batches (push_n/pop_n publish many
// elements with one store, requeue, size()); choose spsc_slot_ring when one
// element at a time crosses between cores and latency matters
// (docs/rings.md, "Slot-signalled SPSC").
//
//   kairos::spsc_slot_ring<std::uint64_t, 64> q;
//   if (!q.try_push(v)) { /* full: counted in q.failed_pushes() */ }
//   std::uint64_t out;
//   while (q.try_pop(out)) use(out);
#pragma once

#include <kairos/config.hpp>
#include <kairos/detail/ring_common.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>

namespace kairos {

// spsc_slot_ring<T, N, Index>: N a power of two, at least 2 (a slot's
// "full for lap L" and "free for lap L + N" states must differ); Index the
// free-running position counter, unsigned, whose atomic loads and stores are
// plain instructions, with N <= 2^(bits-1). A narrower Index saves RAM per
// slot; uint8_t forces wraparound in tests.
//
// Slot state: slot k serves positions k, k + N, k + 2N, ... Its word holds
// lap(i) = i & ~(N - 1) while it is free for position i, and lap(i) + 1 once
// element i is in it. Zero-initialised, every slot is free for its first
// position, so a global ring is constant-initialised into .bss.
//
// Contexts: exactly one producer and one consumer at a time; each may be a
// thread, an ISR or a signal handler. Not copyable or movable.
template <class T, std::size_t N, class Index = std::uint32_t>
class spsc_slot_ring {
    static_assert(N >= 2, "spsc_slot_ring: N must be at least 2");
    static_assert(detail::is_pow2(N),
                  "spsc_slot_ring: N must be a power of two (slot = index & (N-1))");
    static_assert(std::is_unsigned_v<Index>, "spsc_slot_ring: Index must be an unsigned integer");
    static_assert(detail::index_fits<Index>(N),
                  "spsc_slot_ring: Index too narrow, N must be <= 2^(bits of Index - 1)");
    static_assert(detail::index_plain_word<Index>,
                  "spsc_slot_ring: loads/stores of Index are not single instructions here");
    static_assert(std::is_nothrow_move_constructible_v<T>,
                  "spsc_slot_ring: T must be nothrow move constructible");
    static_assert(std::is_nothrow_destructible_v<T>,
                  "spsc_slot_ring: T must be nothrow destructible");

public:
    using value_type = T;
    using index_type = Index;

    // spsc_slot_ring() makes an empty ring (constexpr: no start-up code).
    constexpr spsc_slot_ring() noexcept = default;

    // spsc_slot_ring(start) makes an empty ring whose positions start at
    // start instead of 0 (any value); tests use it to cross the index wrap.
    explicit spsc_slot_ring(Index start) noexcept : prod_{start}, cons_{start} {
        for (std::size_t k = 0; k < N; ++k) {
            // Slot of position start + k: free for that position's lap.
            const Index i = static_cast<Index>(start + k);
            // relaxed: no other side runs during construction.
            cell_at(i).seq.store(lap(i), std::memory_order_relaxed);
        }
    }

    spsc_slot_ring(const spsc_slot_ring&) = delete;
    spsc_slot_ring& operator=(const spsc_slot_ring&) = delete;

    // ~spsc_slot_ring() destroys the elements still queued.
    ~spsc_slot_ring() {
        if constexpr (!std::is_trivially_destructible_v<T>) {
            while (front() != nullptr) pop();
        }
    }

    // ---- producer side (one context at a time; ISR/signal safe) ---------

    // try_push(v) copies v in; false (and counted) when full. Wait-free.
    [[nodiscard]] bool try_push(const T& v) noexcept(std::is_nothrow_copy_constructible_v<T>) {
        return try_emplace(v);
    }

    // try_push(v) moves v in; false when full, and then v is left untouched.
    [[nodiscard]] bool try_push(T&& v) noexcept { return try_emplace(std::move(v)); }

    // try_emplace(args...) constructs T(args...) in the next slot; false
    // (and counted) when full. Wait-free.
    template <class... Args>
    [[nodiscard]] bool try_emplace(Args&&... args) noexcept(
        std::is_nothrow_constructible_v<T, Args&&...>) {
        const Index w = prod_.head;
        cell& c = cell_at(w);
        // acquire: the consumer's move out of and destruction of the slot's
        // previous element happen before we construct into it.
        if (c.seq.load(std::memory_order_acquire) != lap(w)) {
            count_failure();
            return false;
        }
        ::new (static_cast<void*>(c.slot.get())) T(std::forward<Args>(args)...);
        // release: the constructed element is visible before the slot says so.
        c.seq.store(static_cast<Index>(lap(w) + 1u), std::memory_order_release);
        prod_.head = static_cast<Index>(w + 1u);
        return true;
    }

    // failed_pushes() is how many pushes were refused because the ring was
    // full, modulo 2^32. Any context.
    std::uint32_t failed_pushes() const noexcept {
        return prod_.failed.load(std::memory_order_relaxed);  // a statistic; orders nothing
    }

    // ---- consumer side (one context at a time; ISR/signal safe) ---------

    // try_pop(out) move-assigns the oldest element to out and removes it;
    // false when empty. Wait-free.
    [[nodiscard]] bool try_pop(T& out) noexcept(std::is_nothrow_move_assignable_v<T>) {
        const Index r = cons_.tail;
        cell* c = ready(r);
        if (c == nullptr) return false;
        T* e = c->slot.get();
        out = std::move(*e);
        e->~T();
        free_slot(*c, r);
        return true;
    }

    // front() returns the oldest element, or nullptr when empty. The element
    // stays in the ring (zero-copy) until pop(). Wait-free.
    T* front() noexcept {
        cell* c = ready(cons_.tail);
        return c != nullptr ? c->slot.get() : nullptr;
    }

    // pop() destroys the oldest element and frees its slot. Precondition:
    // not empty (front() returned non-null). A violation is caught by
    // KAIROS_ASSERT; with assertions off it does nothing. Wait-free.
    void pop() noexcept {
        const Index r = cons_.tail;
        cell* c = ready(r);
        KAIROS_ASSERT(c != nullptr);  // pop() on an empty ring
        if (c == nullptr) return;
        c->slot.get()->~T();
        free_slot(*c, r);
    }

    // consume(f, max) calls f(T&&) on up to max elements, oldest first, and
    // frees each slot right after its call. Unlike spsc_ring::consume() it
    // has no snapshot of the producer's position, so elements pushed during
    // the pass are visited too; bound the pass with max. Returns how many.
    // Wait-free if f is (at most max calls).
    template <class F>
    std::size_t consume(F&& f, std::size_t max = ~std::size_t{0}) {
        std::size_t k = 0;
        for (; k < max; ++k) {
            const Index r = cons_.tail;
            cell* c = ready(r);
            if (c == nullptr) break;
            T* e = c->slot.get();
            f(std::move(*e));
            e->~T();
            free_slot(*c, r);
        }
        return k;
    }

    // empty() is front() == nullptr: exact for the consumer (false means
    // the next pop succeeds), meaningless elsewhere (it reads the consumer's
    // private position).
    bool empty() noexcept { return front() == nullptr; }

    // capacity() is the maximum number of elements.
    static constexpr std::size_t capacity() noexcept { return N; }

private:
    static constexpr Index lap(Index i) noexcept { return static_cast<Index>(i & ~Index(N - 1)); }

    struct cell {
        std::atomic<Index> seq{0};
        detail::raw_slot<T> slot;
    };

    cell& cell_at(Index i) noexcept { return cells_[static_cast<std::size_t>(i) & (N - 1)]; }

    // ready(r) is the cell holding element r, or nullptr while the
    // producer has not published it.
    cell* ready(Index r) noexcept {
        cell& c = cell_at(r);
        // acquire: pairs with the producer's release store, so the element
        // it published is constructed before we read it.
        return c.seq.load(std::memory_order_acquire) == static_cast<Index>(lap(r) + 1u) ? &c
                                                                                         : nullptr;
    }

    // free_slot(c, r) frees cell c, which held element r (already
    // destroyed), for the producer's next lap, and moves the consumer on.
    void free_slot(cell& c, Index r) noexcept {
        // release: our reads and destruction of the element complete before
        // the producer may construct into the slot again.
        c.seq.store(static_cast<Index>(lap(r) + N), std::memory_order_release);
        cons_.tail = static_cast<Index>(r + 1u);
    }

    void count_failure() noexcept {
        // Producer-only counter: load + store, no RMW, stays ISR/signal safe
        // and costs nothing on the success path. relaxed: a statistic.
        prod_.failed.store(prod_.failed.load(std::memory_order_relaxed) + 1u,
                           std::memory_order_relaxed);
    }

    // Each side's position is private to it: only its own context reads or
    // writes it, so it is a plain variable, on a line of its own.
    struct alignas(cache_line) producer_side {
        Index head = 0;
        std::atomic<std::uint32_t> failed{0};
    };
    struct alignas(cache_line) consumer_side {
        Index tail = 0;
    };
    static_assert(sizeof(producer_side) % cache_line == 0);
    static_assert(sizeof(consumer_side) % cache_line == 0);

    // The slots first: a slot's address is then the object's plus the
    // scaled slot number, with no offset to add on either side.
    alignas(cache_line) cell cells_[N];
    producer_side prod_;
    consumer_side cons_;
};

}  // namespace kairos

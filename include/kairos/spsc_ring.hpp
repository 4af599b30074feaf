// SPDX-License-Identifier: MIT
// kairos/spsc_ring.hpp: bounded single-producer single-consumer ring.
//
// kairos::spsc_ring<T, N, Index> holds up to N elements of T in the object
// itself (no heap). Both sides are wait-free and use only plain atomic loads
// and stores of Index (no read-modify-write, no fences, no seq_cst), so either
// side may run in an interrupt handler or a POSIX signal handler. The memory
// order argument is in docs/rings.md.
//
//   kairos::spsc_ring<std::uint32_t, 64> q;   // producer: ISR, consumer: loop
//   if (!q.try_push(edge)) { /* full: counted in q.failed_pushes() */ }
//   while (auto* e = q.front()) { use(*e); q.pop(); }
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
namespace detail {

// spsc_core<T, Index, Slots> is the SPSC algorithm over a slot store Slots
// (fixed_slots for spsc_ring, heap slots for circular_queue): one mechanism,
// two storage policies. Slots provides capacity(), mask() and at(i), and
// capacity() <= mask() + 1; the ring holds at most capacity() elements.
//
// Indices run freely and wrap at 2^bits; the fill level is head - tail, so all
// slots are usable (no slack slot). Each side keeps a private copy of the
// other side's index and reloads the shared one only when that copy says
// full (producer) or empty (consumer).
template <class T, class Index, class Slots>
class spsc_core {
public:
    using value_type = T;
    using index_type = Index;
    using slots_type = Slots;

    spsc_core(const spsc_core&) = delete;
    spsc_core& operator=(const spsc_core&) = delete;

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
        const Index w = prod_.head.load(std::memory_order_relaxed);  // own index
        if (room(w, 1) == 0) {
            count_failure();
            return false;
        }
        ::new (static_cast<void*>(slot(w))) T(std::forward<Args>(args)...);
        // release: the constructed element is visible before the index says so.
        prod_.head.store(static_cast<Index>(w + 1u), std::memory_order_release);
        return true;
    }

    // push_n(first, n) copy-constructs up to n elements from *first, first+1,
    // ... (pass std::make_move_iterator to move) and publishes them with one
    // index store. Returns how many went in; fewer than n (counted as one
    // failure) when the ring fills. Wait-free.
    template <class It>
    std::size_t push_n(It first, std::size_t n) {
        const Index w = prod_.head.load(std::memory_order_relaxed);  // own index
        const std::size_t k = min(room(w, n), n);
        if (k < n) count_failure();
        publish_guard g{prod_.head, w};  // publishes what was built, even on a throw
        for (; g.done < k; ++g.done, ++first) {
            ::new (static_cast<void*>(slot(static_cast<Index>(w + g.done)))) T(*first);
        }
        return k;
    }

    // failed_pushes() is how many pushes were refused because the ring was
    // full (a partial push_n counts once), modulo 2^32. Any context.
    std::uint32_t failed_pushes() const noexcept {
        return prod_.failed.load(std::memory_order_relaxed);  // a statistic; orders nothing
    }

    // ---- consumer side (one context at a time; ISR/signal safe) ---------

    // try_pop(out) move-assigns the oldest element to out and removes it;
    // false when empty. Wait-free.
    [[nodiscard]] bool try_pop(T& out) noexcept(std::is_nothrow_move_assignable_v<T>) {
        const Index r = cons_.tail.load(std::memory_order_relaxed);  // own index
        if (ready(r, 1) == 0) return false;
        T* e = slot(r);
        out = std::move(*e);
        e->~T();
        release_to(r, 1);
        return true;
    }

    // front() returns the oldest element, or nullptr when empty. The element
    // stays in the ring (zero-copy) until pop(). Wait-free.
    T* front() noexcept {
        const Index r = cons_.tail.load(std::memory_order_relaxed);  // own index
        return ready(r, 1) != 0 ? slot(r) : nullptr;
    }

    // front() const is front() for a const view: it reads the producer's
    // index itself instead of refreshing the consumer's cached copy.
    const T* front() const noexcept {
        const Index r = cons_.tail.load(std::memory_order_relaxed);  // own index
        // acquire: as in ready(), the element is constructed before we read it.
        const Index h = prod_.head.load(std::memory_order_acquire);
        return h != r ? slots_.at(static_cast<std::size_t>(r)).get() : nullptr;
    }

    // pop() destroys the oldest element and frees its slot. Precondition:
    // not empty (front() returned non-null). A violation is caught by
    // KAIROS_ASSERT; with assertions off it does nothing. Wait-free.
    void pop() noexcept {
        const Index r = cons_.tail.load(std::memory_order_relaxed);  // own index
        const bool any = ready(r, 1) != 0;
        KAIROS_ASSERT(any);  // pop() on an empty ring
        if (!any) return;
        slot(r)->~T();
        release_to(r, 1);
    }

    // pop_n(out, n) move-assigns up to n oldest elements to *out++ and frees
    // their slots with one index store. Returns how many. Wait-free.
    template <class OutIt>
    std::size_t pop_n(OutIt out, std::size_t n) {
        const Index r = cons_.tail.load(std::memory_order_relaxed);  // own index
        const std::size_t k = min(ready(r, n), n);
        publish_guard g{cons_.tail, r};  // frees what was taken, even on a throw
        for (; g.done < k; ++out) {
            T* e = slot(static_cast<Index>(r + g.done));
            *out = std::move(*e);
            e->~T();
            ++g.done;
        }
        return k;
    }

    // consume(f, max) calls f(T&&) on up to max elements, oldest first, and
    // frees each slot right after its call, so a producer sees the space
    // while a long pass runs. Only elements present at the start are visited.
    // Returns how many. Wait-free if f is.
    template <class F>
    std::size_t consume(F&& f, std::size_t max = ~std::size_t{0}) {
        const Index r = cons_.tail.load(std::memory_order_relaxed);  // own index
        const std::size_t k = min(ready(r, max), max);
        for (std::size_t i = 0; i < k; ++i) {
            const Index at = static_cast<Index>(r + i);
            T* e = slot(at);
            f(std::move(*e));
            e->~T();
            release_to(at, 1);
        }
        return k;
    }

    // requeue(keep) calls keep(T&) on every element present, oldest first;
    // elements for which it returns false are removed, the rest stay in
    // FIFO order ahead of anything pushed meanwhile. The freed slots become
    // visible to the producer once, at the end. Returns how many were kept.
    // keep() must not throw.
    template <class Keep>
    std::size_t requeue(Keep&& keep) {
        const Index r = cons_.tail.load(std::memory_order_relaxed);  // own index
        const std::size_t n = ready(r, ~std::size_t{0});
        const std::size_t kept = requeue_compact<T>(
            n, [&](std::size_t i) { return slot(static_cast<Index>(r + i)); }, keep);
        if (kept != n) release_to(r, n - kept);
        return kept;
    }

    // ---- either side -----------------------------------------------------

    // size() is the number of elements. Exactness depends on the caller:
    // from the consumer it is a lower bound (that many pops will succeed),
    // from the producer an upper bound (capacity() - size() pushes will
    // succeed); from any other context it is a snapshot that may be stale.
    std::size_t size() const noexcept {
        // acquire on both: a caller that acts on the count sees the elements
        // (or freed slots) it counted. tail first: head only grows after it.
        const Index t = cons_.tail.load(std::memory_order_acquire);
        const Index h = prod_.head.load(std::memory_order_acquire);
        return min(static_cast<std::size_t>(static_cast<Index>(h - t)), slots_.capacity());
    }

    // empty() is size() == 0: exact for the consumer (false means the next
    // pop succeeds), a guess elsewhere.
    bool empty() const noexcept { return size() == 0; }

    // capacity() is the maximum number of elements.
    std::size_t capacity() const noexcept { return slots_.capacity(); }

protected:
    // spsc_core(start) is an empty ring whose indices start at start. It is
    // constexpr (no atomic stores, slots left raw) so that a global
    // spsc_ring is constant-initialized: all zero at start 0, in .bss, with
    // no start-up code. The producer's cached limit starts at start, a view
    // that says "full": the first push reads the consumer's index once.
    constexpr explicit spsc_core(Index start = 0) noexcept
        : prod_{start, start}, cons_{start, start} {}
    ~spsc_core() = default;

    // reset_indices(start, filled) sets both sides to a ring at start whose
    // first `filled` slots hold elements. Only while neither side runs.
    void reset_indices(Index start, std::size_t filled = 0) noexcept {
        const Index head = static_cast<Index>(start + filled);
        prod_.head.store(head, std::memory_order_relaxed);  // no concurrent side
        prod_.limit = static_cast<Index>(start + slots_.capacity());
        cons_.tail.store(start, std::memory_order_relaxed);  // no concurrent side
        cons_.cached_head = head;
    }

    // swap_state(o) exchanges indices and slot stores with o (moving a
    // circular_queue). Only while no side of either ring runs.
    void swap_state(spsc_core& o) noexcept {
        swap_relaxed(prod_.head, o.prod_.head);
        swap_relaxed(cons_.tail, o.cons_.tail);
        std::swap(prod_.limit, o.prod_.limit);
        std::swap(cons_.cached_head, o.cons_.cached_head);
        std::swap(slots_, o.slots_);
    }

    // destroy_all() destroys the elements still in the ring and empties it.
    // Only while neither side runs (destructor, resize).
    void destroy_all() noexcept {
        const Index t = cons_.tail.load(std::memory_order_relaxed);  // no concurrent side
        const Index h = prod_.head.load(std::memory_order_relaxed);  // no concurrent side
        if constexpr (!std::is_trivially_destructible_v<T>) {
            for (Index i = t; i != h; i = static_cast<Index>(i + 1u)) slot(i)->~T();
        }
        reset_indices(h);
    }

    T* slot(Index i) noexcept { return slots_.at(static_cast<std::size_t>(i)).get(); }

    static constexpr std::size_t min(std::size_t a, std::size_t b) noexcept {
        return a < b ? a : b;
    }

    // room(w, want) is the free space the producer sees at head w; it
    // reloads the consumer's index only if the cached view shows less than
    // want.
    std::size_t room(Index w, std::size_t want) noexcept {
        std::size_t free = static_cast<Index>(prod_.limit - w);
        if (free < want) {
            // acquire: the consumer's moves out of (and destruction of) the
            // slots it freed happen before we construct into them.
            const Index t = cons_.tail.load(std::memory_order_acquire);
            prod_.limit = static_cast<Index>(t + slots_.capacity());
            free = static_cast<Index>(prod_.limit - w);
        }
        return free;
    }

    // ready(r, want) is the number of elements the consumer sees at tail r;
    // it reloads the producer's index only if the cached copy shows fewer
    // than want.
    std::size_t ready(Index r, std::size_t want) noexcept {
        std::size_t n = static_cast<Index>(cons_.cached_head - r);
        if (n < want) {
            // acquire: pairs with the producer's release store, so the
            // elements it published are constructed before we read them.
            cons_.cached_head = prod_.head.load(std::memory_order_acquire);
            n = static_cast<Index>(cons_.cached_head - r);
        }
        return n;
    }

    // release_to(r, n) frees n slots from tail r.
    void release_to(Index r, std::size_t n) noexcept {
        // release: our reads and destruction of the elements complete before
        // the producer may reuse their slots.
        cons_.tail.store(static_cast<Index>(r + n), std::memory_order_release);
    }

    void count_failure() noexcept {
        // Producer-only counter: load + store, no RMW, stays ISR/signal safe
        // and costs nothing on the success path. relaxed: a statistic.
        prod_.failed.store(prod_.failed.load(std::memory_order_relaxed) + 1u,
                           std::memory_order_relaxed);
    }

    // publish_guard stores start + done into idx when it goes out of scope:
    // one store per batch, and a throwing T constructor or assignment still
    // publishes the elements already handled.
    struct publish_guard {
        std::atomic<Index>& idx;
        Index start;
        std::size_t done = 0;
        ~publish_guard() {
            // release: the constructed (or consumed) elements complete first.
            if (done != 0) idx.store(static_cast<Index>(start + done), std::memory_order_release);
        }
    };

    // Producer state: written by the producer only; head is read by the
    // consumer when its cached copy runs out.
    struct alignas(cache_line) producer_side {
        std::atomic<Index> head;
        // limit is the producer's copy of cons_.tail plus capacity(): the
        // head value at which the cached view is full, so the fast-path full
        // test is one compare.
        Index limit;
        std::atomic<std::uint32_t> failed{0};
    };
    // Consumer state: written by the consumer only.
    struct alignas(cache_line) consumer_side {
        std::atomic<Index> tail;
        Index cached_head;                 // the consumer's copy of prod_.head
    };
    // Layout: each side's state starts on its own line and fills whole lines,
    // so a write by one side never invalidates the other side's line.
    static_assert(alignof(producer_side) >= cache_line && sizeof(producer_side) % cache_line == 0);
    static_assert(alignof(consumer_side) >= cache_line && sizeof(consumer_side) % cache_line == 0);

    producer_side prod_;
    consumer_side cons_;
    alignas(cache_line) Slots slots_;  // the elements start on a line of their own
};

}  // namespace detail

// spsc_ring<T, N, Index> is a bounded SPSC ring of N elements of T stored in
// the object. N: a power of two (slot = index & (N - 1), no division, which
// lx106 lacks). Index: the free-running counter type; any unsigned type whose
// atomic loads/stores are plain instructions and with N <= 2^(bits-1). A
// narrower Index saves RAM on small cores; uint8_t forces wraparound in tests.
//
// Contexts: exactly one producer and one consumer at a time; each may be a
// thread, an ISR or a signal handler. Not copyable or movable.
template <class T, std::size_t N, class Index = std::uint32_t>
class spsc_ring : public detail::spsc_core<T, Index, detail::fixed_slots<detail::raw_slot<T>, N>> {
    using core = detail::spsc_core<T, Index, detail::fixed_slots<detail::raw_slot<T>, N>>;

    static_assert(N > 0, "spsc_ring: N must be at least 1");
    static_assert(detail::is_pow2(N), "spsc_ring: N must be a power of two (slot = index & (N-1))");
    static_assert(std::is_unsigned_v<Index>, "spsc_ring: Index must be an unsigned integer");
    static_assert(detail::index_fits<Index>(N),
                  "spsc_ring: Index too narrow, N must be <= 2^(bits of Index - 1)");
    static_assert(detail::index_plain_word<Index>,
                  "spsc_ring: loads/stores of Index are not single instructions here");
    static_assert(std::is_nothrow_move_constructible_v<T>,
                  "spsc_ring: T must be nothrow move constructible");
    static_assert(std::is_nothrow_destructible_v<T>, "spsc_ring: T must be nothrow destructible");

public:
    // spsc_ring() makes an empty ring.
    constexpr spsc_ring() noexcept : core(0) {}
    // spsc_ring(start) makes an empty ring whose indices start at start
    // instead of 0 (any value is valid); tests use it to cross the index
    // wrap early with a wide Index.
    constexpr explicit spsc_ring(Index start) noexcept : core(start) {}
    // ~spsc_ring() destroys the elements still queued.
    ~spsc_ring() { this->destroy_all(); }

    static constexpr std::size_t capacity() noexcept { return N; }
};

}  // namespace kairos

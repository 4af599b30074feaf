// SPDX-License-Identifier: MIT
// kairos/mpsc_ring.hpp: bounded multi-producer single-consumer ring.
//
// kairos::mpsc_ring<T, N, Index, Rmw> holds up to N elements of T in the object.
// Producers (threads, ISRs, signal handlers, any number at once) claim a slot
// with one compare-and-swap on the shared head and then publish that slot
// alone through its own sequence number (D. Vyukov's bounded queue). There is
// no in-order commit: a producer preempted between claim and publish, even by
// an ISR that pushes to the same ring, never makes another producer wait.
// The single consumer needs no read-modify-write for correctness (on x86
// its single pops end with one locked exchange, for speed: advance_tail()).
//
// Transiently empty: the consumer takes slots in index order, so a slot that
// is claimed but not yet published hides the slots after it until its
// producer finishes. try_pop() then returns false although size() > 0;
// try_pop_strong() waits that gap out instead (not lock-free).
//
// With Rmw = rmw_masked<> (the default where KAIROS_HAS_CAS == 0: ARMv6-M,
// lx106, no compare-and-swap) the slot is claimed inside the port's
// critical section (kairos::port::irq_disable / irq_restore, a few
// instructions long); constructing and publishing the element stay outside
// it (kairos/rmw.hpp). Memory-order argument: docs/rings.md.
#pragma once

#include <kairos/config.hpp>
#include <kairos/detail/ring_common.hpp>
#include <kairos/rmw.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>

namespace kairos {
namespace detail {

// seq_slot<T, Index> is one element plus its sequence number. With
// n = mask + 1 slots, split the index range into blocks of n values,
// block(v) = v / n, and let position p use slot p & mask:
//   free for p:       any value in block(p); the consumer frees the slot of c
//                     for c + n by storing c + n (as in D. Vyukov's queue),
//                     and a new ring holds 0, which is in block(p) for every
//                     first-lap position p = 0 .. n - 1;
//   published for p:  p + 1 - 2n (published_seq), always in an earlier block
//                     (block(p) - 2 or - 1), so never mistaken for free.
// Compared with Vyukov's p / p + 1 / p + n, only the published value moved
// down two laps; that makes the all-zero state valid (a constexpr
// constructor, no initialization loop) at the cost of a block test (one xor)
// in the producer. Every older value of a slot lies in an earlier block than
// the current lap, so a stale read never looks free. See docs/rings.md.
template <class T, class Index>
struct seq_slot {
    std::atomic<Index> seq{0};
    raw_slot<T> value;
    T* get() noexcept { return value.get(); }
    const T* get() const noexcept { return value.get(); }
};

// mpsc_core<T, Index, Slots, Rmw> is the MPSC algorithm over a slot store (fixed
// for mpsc_ring, heap for circular_queue_mp). Slots provides capacity(),
// mask() and at(i); capacity() <= mask() + 1, and when it is smaller the
// producers also check the fill level against capacity(). count() is the
// number of slots: mask() + 1 >= 2, or 0 for an empty heap store whose at()
// returns one shared dummy slot that is never written. Rmw (kairos/rmw.hpp)
// is how producers claim positions on the shared head.
template <class T, class Index, class Slots, class Rmw = rmw_default>
class mpsc_core {
    using diff_t = std::make_signed_t<Index>;
    static_assert(detail::is_rmw_policy<Rmw>, "mpsc_ring: Rmw must be rmw_cas or rmw_masked<S>");

public:
    using value_type = T;
    using index_type = Index;
    using slots_type = Slots;
    using rmw_policy = Rmw;

    mpsc_core(const mpsc_core&) = delete;
    mpsc_core& operator=(const mpsc_core&) = delete;

    // ---- producer side (any number of contexts; ISR/signal safe) ---------

    // try_push(v) copies v in; false (and counted) when full. Lock-free.
    [[nodiscard]] bool try_push(const T& v) noexcept(std::is_nothrow_copy_constructible_v<T>) {
        return try_emplace(v);
    }

    // try_push(v) moves v in; false when full, and then v is left untouched.
    [[nodiscard]] bool try_push(T&& v) noexcept { return try_emplace(std::move(v)); }

    // try_emplace(args...) constructs T(args...) in a claimed slot and
    // publishes it; false (and counted) when full. Lock-free: the only loop
    // is the claim CAS, which fails only when another producer succeeded.
    // If T(args...) may throw, the element is built before the claim, so a
    // throw never leaves a claimed slot unpublished.
    template <class... Args>
    [[nodiscard]] bool try_emplace(Args&&... args) noexcept(
        std::is_nothrow_constructible_v<T, Args&&...>) {
        if constexpr (std::is_nothrow_constructible_v<T, Args&&...>) {
            Index p;
            seq_slot<T, Index>* s = claim(p);
            if (s == nullptr) return false;
            ::new (static_cast<void*>(s->get())) T(std::forward<Args>(args)...);
            // release: the element is constructed before its slot says so.
            s->seq.store(published_seq(p), std::memory_order_release);
            return true;
        } else {
            T tmp(std::forward<Args>(args)...);
            return try_emplace(std::move(tmp));
        }
    }

    // push_n(first, n) claims up to n consecutive free slots with one CAS,
    // copy-constructs *first, first+1, ... into them (pass
    // std::make_move_iterator to move) and publishes each. Returns how many
    // went in; fewer than n (counted as one failure) when the ring fills.
    // Lock-free. Requires a nothrow construction from *first: claimed slots
    // must be published.
    template <class It>
    std::size_t push_n(It first, std::size_t n) noexcept {
        static_assert(std::is_nothrow_constructible_v<T, decltype(*first)>,
                      "mpsc_ring::push_n: constructing T from *first must not throw");
        Index p;
        const std::size_t k = claim_n(p, n);
        for (std::size_t i = 0; i < k; ++i, ++first) {
            const Index at = static_cast<Index>(p + i);
            auto& s = slots_.at(at);
            ::new (static_cast<void*>(s.get())) T(*first);
            // release: the element is constructed before its slot says so.
            s.seq.store(published_seq(at), std::memory_order_release);
        }
        return k;
    }

    // failed_pushes() is how many pushes were refused because the ring was
    // full (a partial push_n counts once), modulo 2^32. Any context.
    std::uint32_t failed_pushes() const noexcept {
        return prod_.failed.load(std::memory_order_relaxed);  // a statistic; orders nothing
    }

    // ---- consumer side (one context at a time; ISR/signal safe) -----------

    // try_pop(out) move-assigns the oldest element to out and removes it;
    // false when empty or transiently empty. Wait-free.
    [[nodiscard]] bool try_pop(T& out) noexcept(std::is_nothrow_move_assignable_v<T>) {
        return try_consume([&out](T&& e) { out = std::move(e); });
    }

    // try_consume(f) calls f(T&&) on the oldest element where it lies (no
    // move out of the ring), then destroys it and frees its slot; false,
    // without calling f, when empty or transiently empty. Wait-free if f is.
    template <class F>
    [[nodiscard]] bool try_consume(F&& f) {
        const Index c = cons_.tail.load(std::memory_order_relaxed);  // own index
        auto& s = slots_.at(c);
        if (!published(s, c)) return false;
        f(std::move(*s.get()));
        s.get()->~T();
        free_slot(s, c);
        advance_tail(c);
        return true;
    }

    // try_pop_strong(out) is try_pop() that, when a producer has claimed the
    // oldest slot but not yet published it, spins until it does. False only
    // when no slot was claimed. Not lock-free: never call it where it can
    // preempt a producer of this ring on the same core (an ISR consumer),
    // that producer could never finish.
    [[nodiscard]] bool try_pop_strong(T& out) noexcept(std::is_nothrow_move_assignable_v<T>) {
        for (;;) {
            if (try_pop(out)) return true;
            const Index c = cons_.tail.load(std::memory_order_relaxed);  // own index
            // relaxed: head is at least c (our acquire of slot c-1 came
            // after its claim), so equality means nothing is claimed.
            if (prod_.head.load(std::memory_order_relaxed) == c) return false;
            cpu_relax();
        }
    }

    // front() returns the oldest element, or nullptr when (transiently)
    // empty. It stays in the ring until pop(). Wait-free.
    T* front() noexcept {
        const Index c = cons_.tail.load(std::memory_order_relaxed);  // own index
        auto& s = slots_.at(c);
        return published(s, c) ? s.get() : nullptr;
    }

    // front() const is front() for a const view.
    const T* front() const noexcept {
        const Index c = cons_.tail.load(std::memory_order_relaxed);  // own index
        const auto& s = slots_.at(c);
        return published(s, c) ? s.get() : nullptr;
    }

    // pop() destroys the oldest element and frees its slot. Precondition:
    // front() returned non-null. A violation is caught by KAIROS_ASSERT;
    // with assertions off it does nothing. Wait-free.
    void pop() noexcept {
        const Index c = cons_.tail.load(std::memory_order_relaxed);  // own index
        auto& s = slots_.at(c);
        const bool any = published(s, c);
        KAIROS_ASSERT(any);  // pop() on an empty ring
        if (!any) return;
        s.get()->~T();
        free_slot(s, c);
        advance_tail(c);
    }

    // pop_n(out, n) move-assigns up to n oldest published elements to
    // *out++. Each slot is freed as it is emptied (its own sequence number);
    // the tail counter is stored once. Returns how many. Wait-free.
    template <class OutIt>
    std::size_t pop_n(OutIt out, std::size_t n) {
        const Index c = cons_.tail.load(std::memory_order_relaxed);  // own index
        tail_guard g{cons_.tail, c};
        for (; g.done < n; ++out) {
            const Index i = static_cast<Index>(c + g.done);
            auto& s = slots_.at(i);
            if (!published(s, i)) break;
            *out = std::move(*s.get());
            s.get()->~T();
            free_slot(s, i);
            ++g.done;
        }
        return g.done;
    }

    // consume(f, max) calls f(T&&) on up to max published elements, oldest
    // first, freeing each slot after its call. Visits only elements claimed
    // before it started. Returns how many.
    template <class F>
    std::size_t consume(F&& f, std::size_t max = ~std::size_t{0}) {
        const Index c = cons_.tail.load(std::memory_order_relaxed);  // own index
        const std::size_t n = min(claimed(c), max);
        tail_guard g{cons_.tail, c};
        for (; g.done < n; ++g.done) {
            const Index i = static_cast<Index>(c + g.done);
            auto& s = slots_.at(i);
            if (!published(s, i)) break;
            f(std::move(*s.get()));
            s.get()->~T();
            free_slot(s, i);
        }
        return g.done;
    }

    // requeue(keep) calls keep(T&) on every published element present,
    // oldest first; elements for which it returns false are removed, the
    // rest stay in FIFO order ahead of anything pushed meanwhile. Returns how
    // many were kept. keep() must not throw.
    template <class Keep>
    std::size_t requeue(Keep&& keep) {
        const Index c = cons_.tail.load(std::memory_order_relaxed);  // own index
        const std::size_t n = published_run(c);
        // Published slots belong to the consumer until it frees them, so
        // elements may move between them; their sequence numbers stay valid.
        const std::size_t kept = requeue_compact<T>(
            n, [&](std::size_t i) { return slots_.at(static_cast<Index>(c + i)).get(); }, keep);
        const std::size_t dropped = n - kept;
        for (std::size_t i = 0; i < dropped; ++i) {
            const Index at = static_cast<Index>(c + i);
            free_slot(slots_.at(at), at);
        }
        cons_.tail.store(static_cast<Index>(c + dropped), std::memory_order_relaxed);  // size()
        return kept;
    }

    // ---- either side --------------------------------------------------------

    // size() is the number of claimed slots, including pushes still in
    // progress: an upper bound of what the consumer can pop right now, and
    // from a producer a snapshot. Never more than capacity().
    std::size_t size() const noexcept {
        // relaxed: a count that orders nothing; tail first, and a head read
        // older than that tail shows as 0 instead of wrapping.
        const Index t = cons_.tail.load(std::memory_order_relaxed);
        const Index h = prod_.head.load(std::memory_order_relaxed);
        const diff_t d = diff(h, t);
        if (d <= 0) return 0;
        return min(static_cast<std::size_t>(d), slots_.capacity());
    }

    // empty() is true when no published element is at the front: exact for
    // the consumer (false means the next try_pop succeeds); a snapshot
    // elsewhere. May be true while size() > 0 (transiently empty).
    bool empty() const noexcept {
        const Index c = cons_.tail.load(std::memory_order_relaxed);  // the consumer's index
        return !published(slots_.at(c), c);
    }

    // capacity() is the maximum number of elements.
    std::size_t capacity() const noexcept { return slots_.capacity(); }

protected:
    // mpsc_core() is an empty ring at position 0: every index and sequence
    // number zero. constexpr, so a global mpsc_ring is constant-initialized
    // (in .bss, no start-up code); same state as reset_indices(0).
    constexpr mpsc_core() noexcept = default;
    ~mpsc_core() = default;

    // reset_indices(start, filled) makes a ring at start whose first
    // `filled` slots hold published elements; every other slot is free for
    // its first lap. Only while no side runs.
    void reset_indices(Index start, std::size_t filled = 0) noexcept {
        // relaxed throughout: no producer or consumer runs yet; whatever
        // publishes the ring to them (thread start, ...) orders these.
        prod_.head.store(static_cast<Index>(start + filled), std::memory_order_relaxed);
        cons_.tail.store(start, std::memory_order_relaxed);
        const std::size_t n = slots_.count();
        for (std::size_t i = 0; i < n; ++i) {
            const Index p = static_cast<Index>(start + i);
            slots_.at(p).seq.store(i < filled ? published_seq(p) : p, std::memory_order_relaxed);
        }
    }

    // swap_state(o) exchanges indices and slot stores with o (moving a
    // circular_queue_mp). Only while no side of either ring runs.
    void swap_state(mpsc_core& o) noexcept {
        swap_relaxed(prod_.head, o.prod_.head);
        swap_relaxed(cons_.tail, o.cons_.tail);
        std::swap(slots_, o.slots_);
    }

    // destroy_all() destroys the published elements still in the ring and
    // empties it. Only while no side runs (destructor, resize).
    void destroy_all() noexcept {
        Index c = cons_.tail.load(std::memory_order_relaxed);  // no concurrent side
        for (;; c = static_cast<Index>(c + 1u)) {
            auto& s = slots_.at(c);
            if (!published(s, c)) break;
            s.get()->~T();
        }
        reset_indices(c);
    }

    static constexpr std::size_t min(std::size_t a, std::size_t b) noexcept {
        return a < b ? a : b;
    }
    static diff_t diff(Index a, Index b) noexcept {
        return static_cast<diff_t>(static_cast<Index>(a - b));
    }

    // free_for(seq, p) is the producer's free test: seq lies in block(p)
    // (see seq_slot), one xor and one compare. The only values of the slot
    // in that block are its free values for p and the published value of
    // position p + n, which exists only after p was claimed: then the
    // claim's CAS from p fails.
    bool free_for(Index seq, Index p) const noexcept {
        return static_cast<Index>(seq ^ p) <= static_cast<Index>(slots_.mask());
    }
    // published_seq(p) is the sequence number of p's slot once p is
    // published: p + 1 - 2n. (The empty heap store, mask 0 with one dummy
    // slot holding 0, never matches it: p - 1 at tail p.)
    Index published_seq(Index p) const noexcept {
        return static_cast<Index>(p - (2u * slots_.mask() + 1u));
    }

    // published(s, c) is true when slot s holds the element of position c.
    bool published(const seq_slot<T, Index>& s, Index c) const noexcept {
        // acquire: pairs with the producer's release, so the element is
        // constructed before we read it.
        return s.seq.load(std::memory_order_acquire) == published_seq(c);
    }

    // claimed(c) is how many positions from c producers have claimed.
    std::size_t claimed(Index c) const noexcept {
        // relaxed: only bounds a pass; published() orders each element.
        const diff_t d = diff(prod_.head.load(std::memory_order_relaxed), c);
        return d > 0 ? static_cast<std::size_t>(d) : 0;
    }

    // published_run(c) is how many consecutive positions from c are
    // published: what the consumer at tail c can take now (a snapshot from
    // any other context). One acquire load per element plus one.
    std::size_t published_run(Index c) const noexcept {
        const std::size_t limit = claimed(c);
        std::size_t n = 0;
        while (n < limit && published(slots_.at(static_cast<Index>(c + n)),
                                      static_cast<Index>(c + n))) {
            ++n;
        }
        return n;
    }

    // free_slot(s, c) hands slot s to the producer of position c + slots.
    void free_slot(seq_slot<T, Index>& s, Index c) noexcept {
        // release: our reads and destruction of the element complete before
        // a producer constructs into the slot again.
        s.seq.store(static_cast<Index>(c + slots_.mask() + 1u), std::memory_order_release);
    }

    // advance_tail(c) moves the consumer's tail past position c after a
    // single-element pop. Where KAIROS_MPSC_POP_BARRIER (x86) it is a locked
    // exchange instead of a plain store: the full barrier keeps the consumer from running on to the next
    // slots (lines the producers are writing) before its frees are visible,
    // which measured 1.5-1.7x more ring.mpsc.throughput (2 producers on two
    // cores) for ~2 ns more per uncontended pop (docs/rings.md). One
    // instruction either way, wait-free; other cores keep the plain store.
    void advance_tail(Index c) noexcept {
        const Index next = static_cast<Index>(c + 1u);
#if KAIROS_MPSC_POP_BARRIER
        // seq_cst: the barrier is the point (xchg); the value only feeds size().
        (void)cons_.tail.exchange(next, std::memory_order_seq_cst);
#else
        cons_.tail.store(next, std::memory_order_relaxed);  // only feeds size() and over_limit()
#endif
    }

    // over_limit(p) is true when claiming p would exceed capacity() (only
    // possible when capacity() < mask() + 1, circular_queue_mp).
    bool over_limit(Index p) const noexcept {
        if (slots_.capacity() == slots_.mask() + 1) return false;  // constant for fixed slots
        // relaxed: only a count; the slot's seq orders its reuse. A tail
        // newer than p shows as negative, i.e. not full.
        const diff_t d = diff(p, cons_.tail.load(std::memory_order_relaxed));
        return d >= static_cast<diff_t>(slots_.capacity());
    }

    // claim(p) reserves the next position p for this producer and returns
    // its slot; nullptr (and counted) when full.
    seq_slot<T, Index>* claim(Index& p) noexcept {
        if constexpr (Rmw::uses_cas) {
            p = prod_.head.load(std::memory_order_relaxed);  // a guess; the CAS checks it
            for (;;) {
                seq_slot<T, Index>& s = slots_.at(p);
                // acquire: the consumer's last use of this slot (move out,
                // destroy) happens before we construct into it.
                if (free_for(s.seq.load(std::memory_order_acquire), p)) {
                    if (over_limit(p)) break;
                    // relaxed: the CAS only arbitrates between producers; the
                    // slot's seq (acquire above, release on publish) orders data.
                    if (prod_.head.compare_exchange_weak(p, static_cast<Index>(p + 1u),
                                                         std::memory_order_relaxed,
                                                         std::memory_order_relaxed)) {
                        return &s;
                    }
                } else {
                    // Not free for p: if nobody has claimed p meanwhile, the slot
                    // still holds the element of one lap ago (full); otherwise
                    // retry from the new head.
                    if (prod_.head.load(std::memory_order_relaxed) == p) break;
                    p = prod_.head.load(std::memory_order_relaxed);
                }
            }
            prod_.failed.fetch_add(1u, std::memory_order_relaxed);  // a statistic; orders nothing
            return nullptr;
        } else {
            // No CAS: claim inside the critical section (the port's interrupt
            // mask). No other producer can run in it, so free_for() is the whole
            // free test.
            const auto saved = Rmw::section::enter();
            p = prod_.head.load(std::memory_order_relaxed);  // serialized by the mask
            // acquire: as above, the consumer is done with the slot.
            const bool ok =
                free_for(slots_.at(p).seq.load(std::memory_order_acquire), p) && !over_limit(p);
            if (ok) {
                prod_.head.store(static_cast<Index>(p + 1u), std::memory_order_relaxed);  // masked
            } else {
                prod_.failed.store(prod_.failed.load(std::memory_order_relaxed) + 1u,
                                   std::memory_order_relaxed);  // masked; a statistic
            }
            Rmw::section::leave(saved);
            return ok ? &slots_.at(p) : nullptr;
        }
    }

    // free_run(p, want) is how many of the positions p, p+1, ... (at most
    // want) have free slots and fit under capacity().
    std::size_t free_run(Index p, std::size_t want) const noexcept {
        std::size_t k = 0;
        // acquire: as in claim(). The consumer frees slots in order, so the
        // first busy slot ends the run.
        for (; k < want; ++k) {
            const Index at = static_cast<Index>(p + k);
            if (!free_for(slots_.at(at).seq.load(std::memory_order_acquire), at)) break;
        }
        if (slots_.capacity() != slots_.mask() + 1) {  // constant for fixed slots
            // relaxed: a count, as in over_limit().
            const diff_t used = diff(p, cons_.tail.load(std::memory_order_relaxed));
            const std::size_t room =
                used <= 0 ? slots_.capacity()
                          : (static_cast<std::size_t>(used) >= slots_.capacity()
                                 ? 0
                                 : slots_.capacity() - static_cast<std::size_t>(used));
            k = min(k, room);
        }
        return k;
    }

    // claim_n(p, want) reserves up to want consecutive positions from p;
    // returns how many (a shortfall is counted once).
    std::size_t claim_n(Index& p, std::size_t want) noexcept {
        if (want == 0) return 0;
        std::size_t k = 0;
        if constexpr (Rmw::uses_cas) {
            p = prod_.head.load(std::memory_order_relaxed);  // a guess; the CAS checks it
            for (;;) {
                // acquire (in free_run): the consumer is done with the slots.
                k = free_run(p, want);
                if (k == 0) {
                    // As in claim(): full unless p was claimed meanwhile.
                    const Index h = prod_.head.load(std::memory_order_relaxed);
                    if (h == p) break;
                    p = h;
                    continue;
                }
                // relaxed: arbitrates between producers only, as in claim().
                if (prod_.head.compare_exchange_weak(p, static_cast<Index>(p + k),
                                                     std::memory_order_relaxed,
                                                     std::memory_order_relaxed)) {
                    break;
                }
            }
            if (k < want) prod_.failed.fetch_add(1u, std::memory_order_relaxed);  // a statistic
        } else {
            const auto saved = Rmw::section::enter();
            p = prod_.head.load(std::memory_order_relaxed);  // serialized by the mask
            k = free_run(p, want);
            prod_.head.store(static_cast<Index>(p + k), std::memory_order_relaxed);  // masked
            if (k < want) {
                prod_.failed.store(prod_.failed.load(std::memory_order_relaxed) + 1u,
                                   std::memory_order_relaxed);  // masked; a statistic
            }
            Rmw::section::leave(saved);
        }
        return k;
    }

    // tail_guard stores start + done into the consumer's tail when it goes
    // out of scope: one store per batch, also when an assignment throws.
    struct tail_guard {
        std::atomic<Index>& tail;
        Index start;
        std::size_t done = 0;
        ~tail_guard() {
            // relaxed: the tail only feeds size() and over_limit(); slot
            // reuse is ordered by each slot's seq.
            if (done != 0) tail.store(static_cast<Index>(start + done), std::memory_order_relaxed);
        }
    };

    // Producer state, shared by all producers (the CAS target).
    struct alignas(cache_line) producer_side {
        std::atomic<Index> head{0};
        std::atomic<std::uint32_t> failed{0};
    };
    // Consumer state, written by the consumer only.
    struct alignas(cache_line) consumer_side {
        std::atomic<Index> tail{0};
    };
    // Layout: each side's state starts on its own line and fills whole lines.
    static_assert(alignof(producer_side) >= cache_line && sizeof(producer_side) % cache_line == 0);
    static_assert(alignof(consumer_side) >= cache_line && sizeof(consumer_side) % cache_line == 0);

    producer_side prod_;
    consumer_side cons_;
    alignas(cache_line) Slots slots_;
};

}  // namespace detail

// mpsc_ring<T, N, Index, Rmw> is a bounded MPSC ring of N elements of T stored in
// the object. N: a power of two. Index: the free-running position type, at
// least 32 bits, because a producer that stalls between reading a slot and
// its CAS while other producers push exactly 2^bits elements would see the
// same head value again (ABA); 2^32 pushes inside one preemption is the
// accepted bound of this design, 64 bits removes it. Rmw: how producers
// claim, rmw_cas or rmw_masked<Section> (kairos/rmw.hpp); the default is
// the target's (KAIROS_HAS_CAS).
//
// Contexts: any number of producers (threads, ISRs, signal handlers) and one
// consumer at a time. Not copyable or movable.
template <class T, std::size_t N, class Index = std::uint32_t, class Rmw = rmw_default>
class mpsc_ring
    : public detail::mpsc_core<T, Index, detail::fixed_slots<detail::seq_slot<T, Index>, N>, Rmw> {
    using core =
        detail::mpsc_core<T, Index, detail::fixed_slots<detail::seq_slot<T, Index>, N>, Rmw>;

    static_assert(N >= 2,
                  "mpsc_ring: N must be at least 2 (with one slot, 'published for p' and "
                  "'free for p + 1' are the same sequence number)");
    static_assert(detail::is_pow2(N), "mpsc_ring: N must be a power of two (slot = index & (N-1))");
    static_assert(std::is_unsigned_v<Index>, "mpsc_ring: Index must be an unsigned integer");
    static_assert(sizeof(Index) >= 4,
                  "mpsc_ring: Index must be at least 32 bits (a narrow CAS index invites ABA)");
    static_assert(detail::index_fits<Index>(2 * N),
                  "mpsc_ring: Index too narrow, N must be <= 2^(bits of Index - 2)");
    static_assert(!Rmw::uses_cas || detail::always_lock_free<std::atomic<Index>>::value,
                  "mpsc_ring: compare-and-swap on Index is not lock-free here");
    static_assert(detail::index_plain_word<Index>,
                  "mpsc_ring: loads/stores of Index are not single instructions here");
    static_assert(std::is_nothrow_move_constructible_v<T>,
                  "mpsc_ring: T must be nothrow move constructible");
    static_assert(std::is_nothrow_destructible_v<T>, "mpsc_ring: T must be nothrow destructible");

public:
    // mpsc_ring() makes an empty ring. constexpr: a global one needs no
    // start-up code.
    constexpr mpsc_ring() noexcept = default;
    // mpsc_ring(start) makes an empty ring whose positions start at start
    // (any value); tests use it to cross the index wrap early.
    explicit mpsc_ring(Index start) noexcept { this->reset_indices(start); }
    // ~mpsc_ring() destroys the elements still queued. No producer may be
    // mid-push.
    ~mpsc_ring() { this->destroy_all(); }

    static constexpr std::size_t capacity() noexcept { return N; }
};

}  // namespace kairos

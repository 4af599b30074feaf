// SPDX-License-Identifier: MIT
// kairos/detail/ring_common.hpp: pieces shared by spsc_ring, mpsc_ring and
// circular_queue: element storage, the in-object slot array, index checks and
// the order-preserving compaction behind for_each_requeue.
#pragma once

#include <kairos/config.hpp>
#include <kairos/detail/raw_storage.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>

namespace kairos::detail {

// raw_slot<T> is uninitialized storage for one T: rings construct an element
// on push and destroy it on pop, so T needs no default constructor and a ring
// holds no live T it was not given. Its constexpr constructor writes nothing
// (raw_storage), so a ring's constructor can be constexpr.
template <class T>
struct raw_slot {
    raw_storage<sizeof(T), alignof(T)> mem;
    T* get() noexcept { return std::launder(reinterpret_cast<T*>(mem.bytes)); }
    const T* get() const noexcept { return std::launder(reinterpret_cast<const T*>(mem.bytes)); }
};

// fixed_slots<Slot, N> is the in-object slot array of the compile-time rings:
// capacity and mask are constants, so a slot address is one AND and one add.
template <class Slot, std::size_t N>
struct fixed_slots {
    static constexpr std::size_t capacity() noexcept { return N; }
    static constexpr std::size_t mask() noexcept { return N - 1; }
    static constexpr std::size_t count() noexcept { return N; }
    Slot& at(std::size_t i) noexcept { return slots[i & (N - 1)]; }
    const Slot& at(std::size_t i) const noexcept { return slots[i & (N - 1)]; }
    Slot slots[N];
};

// is_pow2(n) is true for 1, 2, 4, ...
constexpr bool is_pow2(std::size_t n) noexcept { return n != 0 && (n & (n - 1)) == 0; }

// index_fits<Index>(n) is true when free-running Index counters can tell n + 1
// fill levels (0..n) apart and 2^bits is a multiple of a power-of-two n, i.e.
// n <= 2^(bits-1).
template <class Index>
constexpr bool index_fits(std::size_t n) noexcept {
    return n - 1 <= static_cast<std::size_t>(static_cast<Index>(~Index(0)) >> 1);
}

// always_lock_free<A> is A::is_always_lock_free: every operation of the
// atomic type A is lock-free on this target. An atomic type without that
// member is taken as lock-free: it is a model checker's instrumented atomic
// (tests/model), which stands for the hardware operation.
template <class A, class = void>
struct always_lock_free : std::true_type {};
template <class A>
struct always_lock_free<A, std::void_t<decltype(A::is_always_lock_free)>>
    : std::bool_constant<A::is_always_lock_free> {};

// index_plain_word<Index> says that a load or a store of Index is a single
// instruction. always_lock_free<std::atomic<Index>> says that, except where
// read-modify-write of Index goes through library calls: on cores without
// compare-and-swap (ARMv6-M, lx106, rv32imc) and, for 8- and 16-bit types,
// on RV32 with the A extension (word-sized LR/SC and AMOs only), the
// compiler reports "sometimes lock-free", while aligned loads and stores up
// to the pointer width are plain ldr/str, l32i/s32i, lw/sw (targets.md §7,
// §8). So assert the width there instead.
template <class Index>
inline constexpr bool index_plain_word =
    always_lock_free<std::atomic<Index>>::value || sizeof(Index) <= sizeof(void*);

// swap_relaxed(a, b) exchanges two atomics' values. Only while nothing else
// touches either (moving a circular_queue), hence relaxed.
template <class Index>
void swap_relaxed(std::atomic<Index>& a, std::atomic<Index>& b) noexcept {
    const Index t = a.load(std::memory_order_relaxed);  // no concurrent access
    a.store(b.load(std::memory_order_relaxed), std::memory_order_relaxed);
    b.store(t, std::memory_order_relaxed);
}

// requeue_compact(n, at, keep) runs keep(T&) on the elements at(0) .. at(n-1)
// in FIFO order; keep() returning false drops (destroys) the element. The
// kept elements end up, in their original order, in the LAST k positions
// at(n-k) .. at(n-1), and the function returns k. Positions at(0) .. at(n-k-1)
// are left raw (no live T).
//
// Kept elements must move toward the newest end, because a ring can only free
// space at its consumer end. Visiting in FIFO order while packing toward the
// back would overwrite unvisited elements, so this packs toward the front
// during the visit and shifts the kept block to the back afterwards (a move
// is nothrow, asserted by every ring). keep() must not throw.
template <class T, class At, class Keep>
std::size_t requeue_compact(std::size_t n, At&& at, Keep&& keep) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < n; ++i) {
        T* e = at(i);
        if (!keep(*e)) {
            e->~T();
            continue;
        }
        if (kept != i) {
            ::new (static_cast<void*>(at(kept))) T(std::move(*e));
            e->~T();
        }
        ++kept;
    }
    if (kept != n && kept != 0) {
        const std::size_t shift = n - kept;
        for (std::size_t j = kept; j-- > 0;) {  // back to front: ranges may overlap
            T* e = at(j);
            ::new (static_cast<void*>(at(j + shift))) T(std::move(*e));
            e->~T();
        }
    }
    return kept;
}

}  // namespace kairos::detail

// SPDX-License-Identifier: MIT
// kairos/timer_queue.hpp: intrusive timers ordered by due time, with an O(1)
// "is anything due?" check. Shared by the deferred scheduler's recurrent
// functions and the kernel's sleeps and timeouts.
//
// A timer_node is embedded in the owner's object (a recurrent entry, a
// thread control block); arming places it in the queue at its due time,
// nothing is allocated. The queue is a binary min-heap of node pointers in
// the queue object (Capacity of them: the kernel's is max_threads, the
// deferred scheduler's its RecurrentCapacity), each node holding its own
// heap index, so with n armed timers:
//   next_due() / due(now)     O(1)
//   arm(t, due)               O(log n): at most log2(n) parent steps
//   disarm(t)                 O(log n)
//   pop_due(now)              O(log n)
// in the worst case, not amortised: a caller that masks interrupts around
// one call (the kernel) masks them for at most about log2(Capacity) steps,
// whatever n is (docs/targets.md has the measured spans).
//
// Order: earlier due first (time_before(), so across the 64-bit wrap);
// among equal due times the Tie policy decides. The default, arming_order,
// fires the timer armed (or re-armed) first first, by a 32-bit arming
// count compared with wrap-around: exact unless two equal-due timers were
// armed 2^31 or more arms apart. A policy is a type with
// `static bool first(const timer_node& a, const timer_node& b)`, a strict
// weak order (the deferred scheduler passes its registration order).
//
// Synchronization: none. The owner serializes every call: the deferred
// scheduler calls it from its single task-context runner only; the kernel
// calls it with interrupts masked (port::irq_disable), which also makes it
// usable from a timer ISR.
#pragma once

#include <kairos/config.hpp>
#include <kairos/time.hpp>

#include <cstddef>
#include <cstdint>

namespace kairos {

// timer_node is one timer: the absolute due time (64-bit µs on the time line
// of time.hpp), its arming count and its place in the heap. Embed it in the
// owning object and recover the owner with static_cast (derive from it) or
// by its address. 16 bytes on 32- and 64-bit targets.
struct timer_node {
    std::uint64_t due = 0;
    std::uint32_t seq = 0;   // arming count: arming_order's tie-break
    std::uint16_t slot = 0;  // 1 + index in the heap; 0 while not armed
    bool armed() const noexcept { return slot != 0; }
};

// arming_order: among equal due times, the timer armed first fires first.
struct arming_order {
    static bool first(const timer_node& a, const timer_node& b) noexcept {
        return static_cast<std::int32_t>(a.seq - b.seq) < 0;  // wrap-around distance
    }
};

// timer_queue keeps up to Capacity armed timers, the earliest first. A new
// queue is all zero (constexpr, no start-up code in .bss). Not copyable
// (nodes hold their index in it).
template <std::size_t Capacity, class Tie = arming_order>
class timer_queue {
    static_assert(Capacity >= 1 && Capacity <= 0xFFFF, "a node's slot is 16 bits");

public:
    static constexpr std::size_t capacity = Capacity;

    constexpr timer_queue() noexcept = default;
    timer_queue(const timer_queue&) = delete;
    timer_queue& operator=(const timer_queue&) = delete;

    bool empty() const noexcept { return n_ == 0; }
    std::size_t size() const noexcept { return n_; }

    // next_due() returns the earliest due time. Precondition: !empty().
    std::uint64_t next_due() const noexcept { return heap_[0]->due; }

    // due(now) is true when the earliest timer is due at now. O(1): this is
    // the whole cost of an idle pass.
    bool due(std::uint64_t now) const noexcept {
        return n_ != 0 && !time_before(now, heap_[0]->due);
    }

    // arm(t, due) (re)arms t to fire at due; if t was armed (in this queue)
    // it is moved. Among equal due times (arming_order) the timer armed last
    // fires last. Returns false, arming nothing, if t is not armed and
    // Capacity timers are (an assertion with KAIROS_ASSERTS: the kernel and
    // the deferred scheduler size their queue so that this cannot happen).
    bool arm(timer_node& t, std::uint64_t due) noexcept {
        t.due = due;
        t.seq = next_seq_++;
        if (t.armed()) {
            place(static_cast<std::size_t>(t.slot - 1u), t);
            return true;
        }
        if (n_ == Capacity) return full();
        place(n_++, t);
        return true;
    }

    // disarm(t) removes t if it is armed (in this queue); otherwise does
    // nothing.
    void disarm(timer_node& t) noexcept {
        if (!t.armed()) return;
        const std::size_t i = static_cast<std::size_t>(t.slot - 1u);
        t.slot = 0;
        timer_node* last = heap_[--n_];
        if (last != &t) place(i, *last);  // the last leaf fills the hole
    }

    // pop_due(now) removes and returns the earliest timer if it is due at
    // now, else returns null. Call it in a loop to expire everything due.
    timer_node* pop_due(std::uint64_t now) noexcept {
        if (!due(now)) return nullptr;
        timer_node* t = heap_[0];
        disarm(*t);
        return t;
    }

private:
    static bool before(const timer_node& a, const timer_node& b) noexcept {
        if (a.due != b.due) return time_before(a.due, b.due);
        return Tie::first(a, b);
    }

    void put(std::size_t i, timer_node& t) noexcept {
        if (i >= Capacity) __builtin_unreachable();  // n_ <= Capacity; tells GCC's bounds warning
        heap_[i] = &t;
        t.slot = static_cast<std::uint16_t>(i + 1);
    }

    // place(i, t) stores t at index i (free, or t's own) and restores the
    // heap order: up towards the root while t is before its parent, else
    // down while a child is before t. At most log2(n) steps either way.
    void place(std::size_t i, timer_node& t) noexcept {
        if (n_ > Capacity || i >= Capacity) __builtin_unreachable();  // the invariants arm() keeps
        while (i > 0) {
            const std::size_t parent = (i - 1) / 2;
            if (!before(t, *heap_[parent])) break;
            put(i, *heap_[parent]);
            i = parent;
        }
        for (;;) {
            std::size_t c = 2 * i + 1;
            if (c >= n_) break;
            if (c + 1 < n_ && before(*heap_[c + 1], *heap_[c])) ++c;
            if (!before(*heap_[c], t)) break;
            put(i, *heap_[c]);
            i = c;
        }
        put(i, t);
    }

    static bool full() noexcept {
        KAIROS_ASSERT(!"timer_queue: more timers armed than its capacity");
        return false;
    }

    timer_node* heap_[Capacity] = {};
    std::size_t n_ = 0;
    std::uint32_t next_seq_ = 0;
};

}  // namespace kairos

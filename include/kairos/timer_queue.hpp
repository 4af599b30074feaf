// SPDX-License-Identifier: MIT
// kairos/timer_queue.hpp: intrusive timers ordered by due time, with an O(1)
// "is anything due?" check. Shared by the deferred scheduler's recurrent
// functions and the kernel's sleeps and timeouts.
//
// A timer_node is embedded in the owner's object (a recurrent entry, a
// thread control block); arming links it into the queue at its due time,
// nothing is allocated. The queue is a doubly linked list sorted by due time
// (ties keep arming order, or the order a tie-break gives), so:
//   next_due() / due(now) / pop_due(now)   O(1)
//   disarm(t)                             O(1)
//   arm(t, due)                           O(n), walking from the latest timer
//                                         (periodic re-arms land near the end)
//   arm(t, due, first)                    the same, ties broken by first()
// n is the number of armed timers: tens on a microcontroller, where a sorted
// list beats a heap in code size and constant factors.
//
// Synchronization: none. The owner serializes every call: the deferred
// scheduler calls it from its single task-context runner only; the kernel
// calls it with interrupts masked (port::irq_disable), which also makes it
// usable from a timer ISR.
#pragma once

#include <kairos/time.hpp>

#include <cstdint>

namespace kairos {

// list_node links an object into a node_list. Unlinked: both pointers null.
struct list_node {
    list_node* prev = nullptr;
    list_node* next = nullptr;

    bool linked() const noexcept { return next != nullptr; }

    // unlink() removes this node from whichever list holds it. Precondition:
    // linked().
    void unlink() noexcept {
        prev->next = next;
        next->prev = prev;
        prev = next = nullptr;
    }
};

// node_list is a circular doubly linked list with a sentinel: push, pop and
// unlink never need to know which list a node is in. Not copyable or movable
// (nodes point at the sentinel).
//
// A new list is all zero: its sentinel's pointers are null until the first
// insertion links it to itself, so the constructor is constexpr and writes
// nothing, and a namespace-scope list (the kernel's timer queue, a global
// deferred scheduler's lists) is zero-initialized in .bss with no start-up
// code. Empty is then either state: next == nullptr or next == &sentinel.
class node_list {
public:
    constexpr node_list() noexcept = default;
    node_list(const node_list&) = delete;
    node_list& operator=(const node_list&) = delete;

    bool empty() const noexcept { return front() == nullptr; }
    list_node* front() const noexcept { return head_.next == &head_ ? nullptr : head_.next; }
    list_node* back() const noexcept { return head_.prev == &head_ ? nullptr : head_.prev; }
    // next_of(n) is the node after n, or null at the end.
    list_node* next_of(const list_node* n) const noexcept {
        return n->next == &head_ ? nullptr : n->next;
    }
    // prev_of(n) is the node before n, or null at the start.
    list_node* prev_of(const list_node* n) const noexcept {
        return n->prev == &head_ ? nullptr : n->prev;
    }

    // insert_after(pos, n) links n after pos (pos null: at the front).
    // Precondition: !n.linked().
    void insert_after(list_node* pos, list_node& n) noexcept {
        list_node* p = pos != nullptr ? pos : &head_;
        list_node* after = p->next;
        if (after == nullptr) after = &head_;  // first insertion into a new list
        n.prev = p;
        n.next = after;
        after->prev = &n;
        p->next = &n;
    }
    void push_back(list_node& n) noexcept { insert_after(head_.prev, n); }

    // pop_front() unlinks and returns the first node, or null when empty.
    list_node* pop_front() noexcept {
        list_node* n = front();
        if (n != nullptr) n->unlink();
        return n;
    }

private:
    list_node head_;
};

// timer_node is one timer: a list link plus the absolute due time (64-bit µs
// on the time line of time.hpp). Embed it in the owning object and recover
// the owner with static_cast (derive from it) or a stored pointer.
struct timer_node : list_node {
    std::uint64_t due = 0;
    bool armed() const noexcept { return linked(); }
};

// timer_queue keeps armed timers sorted by due time.
class timer_queue {
public:
    constexpr timer_queue() noexcept = default;

    bool empty() const noexcept { return list_.empty(); }

    // next_due() returns the earliest due time. Precondition: !empty().
    std::uint64_t next_due() const noexcept { return first()->due; }

    // due(now) is true when the earliest timer is due at now. O(1): this is
    // the whole cost of an idle pass.
    bool due(std::uint64_t now) const noexcept {
        return !empty() && !time_before(now, first()->due);
    }

    // arm(t, due) (re)arms t to fire at due. If t was armed (in this queue)
    // it is moved. Among equal due times, the timer armed last fires last.
    void arm(timer_node& t, std::uint64_t due) noexcept {
        arm(t, due, [](const timer_node&, const timer_node&) noexcept { return false; });
    }

    // arm(t, due, first) is arm(t, due) with a tie-break: among timers due
    // at the same time, t goes before every timer o with first(t, o) true
    // and after the others. first must be a strict weak order, and every arm
    // of this queue must use the same one (the deferred scheduler passes its
    // registration order, so ties fire in registration order whatever order
    // the re-arms came in).
    template <class First>
    void arm(timer_node& t, std::uint64_t due, First first) noexcept {
        if (t.armed()) t.unlink();
        t.due = due;
        list_node* pos = list_.back();
        while (pos != nullptr) {
            const timer_node& o = *static_cast<const timer_node*>(pos);
            if (!time_before(due, o.due) && !(due == o.due && first(t, o))) break;
            pos = list_.prev_of(pos);
        }
        list_.insert_after(pos, t);
    }

    // disarm(t) removes t if it is armed; otherwise does nothing.
    static void disarm(timer_node& t) noexcept {
        if (t.armed()) t.unlink();
    }

    // pop_due(now) unlinks and returns the earliest timer if it is due at
    // now, else returns null. Call it in a loop to expire everything due.
    timer_node* pop_due(std::uint64_t now) noexcept {
        if (!due(now)) return nullptr;
        return static_cast<timer_node*>(list_.pop_front());
    }

private:
    const timer_node* first() const noexcept { return static_cast<const timer_node*>(list_.front()); }
    node_list list_;
};

}  // namespace kairos

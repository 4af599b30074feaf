// SPDX-License-Identifier: MIT
// kairos/detail/clist.hpp: intrusive circular doubly linked list.
//
// The kernel's run queue keeps one clist per priority. RIOT uses a singly
// linked circular list (remove is O(n) unless the node is the head); with
// a prev link every operation here is O(1): push_back, pop_front, rotate,
// and removal of any node, e.g. when an interrupt changes the priority of a
// thread in the middle of its level.
#pragma once

namespace kairos::detail {

// clist_node is the link a listed object derives from (or contains).
// Unlisted: both pointers null.
struct clist_node {
    clist_node* next = nullptr;
    clist_node* prev = nullptr;
    bool linked() const noexcept { return next != nullptr; }
};

// clist is the anchor: a pointer to the head, whose prev is the tail. A new
// list is all zero (constexpr, in .bss with no start-up code). The one
// intrusive list of kairos: the run queue's levels, the deferred
// scheduler's alarm and fire lists. Not synchronised: the kernel calls it
// with interrupts masked, the deferred scheduler from its one consumer.
class clist {
public:
    bool empty() const noexcept { return head_ == nullptr; }
    clist_node* front() const noexcept { return head_; }
    // next_of(n) is the node after n, which is in this list, or nullptr at
    // the end.
    clist_node* next_of(const clist_node* n) const noexcept {
        return n->next == head_ ? nullptr : n->next;
    }

    // push_back(n) appends n, which must not be in any list.
    void push_back(clist_node* n) noexcept {
        if (head_ == nullptr) {
            n->next = n->prev = n;
            head_ = n;
            return;
        }
        clist_node* tail = head_->prev;
        n->next = head_;
        n->prev = tail;
        tail->next = n;
        head_->prev = n;
    }

    // remove(n) unlinks n, which must be in this list, and returns true if
    // that emptied the list: the caller then knows it without reloading the
    // anchor (the stores to n's links may alias it, for all the compiler
    // knows).
    bool remove(clist_node* n) noexcept {
        const bool last = n->next == n;
        if (last) {
            head_ = nullptr;
        } else {
            n->prev->next = n->next;
            n->next->prev = n->prev;
            if (head_ == n) head_ = n->next;
        }
        n->next = n->prev = nullptr;
        return last;
    }

    // pop_front() unlinks and returns the head, or nullptr when empty.
    clist_node* pop_front() noexcept {
        clist_node* n = head_;
        if (n != nullptr) remove(n);
        return n;
    }

    // rotate() moves the head to the tail (yield within one priority): with
    // a circular list that is just moving the anchor. Requires !empty().
    void rotate() noexcept { head_ = head_->next; }

    // rotate_past(n) makes the node after n the head, so that n, which must
    // be in this list, is the tail (a yield: the running thread goes behind
    // its equals, wherever it stood). n is usually the head: then this is
    // rotate(), without loading the head.
    void rotate_past(const clist_node* n) noexcept { head_ = n->next; }

private:
    clist_node* head_ = nullptr;
};

}  // namespace kairos::detail

// SPDX-License-Identifier: MIT
// mutex: sorted waiters, direct handoff, optional priority inheritance.
#include "kernel_impl.hpp"

namespace kairos::kernel {

using namespace impl;

namespace {

void set_owner(mutex& m, pid p) noexcept {
    std::uint32_t& w = mutex_access::word(m);
    w = (w & ~mutex::pid_mask) | static_cast<std::uint32_t>(p);
}

// take(m, t): t, running or the first waiter, becomes the owner of m.
// n_held counts the mutexes of either protocol a thread owns, so that
// exit() can refuse to end a thread that still owns one.
__attribute__((always_inline)) inline void take(mutex& m, tcb* t) noexcept {
    set_owner(m, t->id);
    ++t->n_held;
    KAIROS_TRACE_EVENT(mutex_lock, reinterpret_cast<std::uintptr_t>(&m), t->id);
}

void hold(tcb* t, mutex* m) noexcept {
    KAIROS_ASSERT(t->n_held_pi < KAIROS_MUTEX_MAX_HELD);  // raise KAIROS_MUTEX_MAX_HELD
    t->held_pi[t->n_held_pi++] = m;
}

void release(tcb* t, const mutex* m) noexcept {
    for (unsigned i = 0; i < t->n_held_pi; ++i) {
        if (t->held_pi[i] == m) {
            t->held_pi[i] = t->held_pi[--t->n_held_pi];
            t->held_pi[t->n_held_pi] = nullptr;
            return;
        }
    }
}

// hand_over(m, pi, next) makes next, the first waiter, the owner of m at once
// (nobody can barge in between) and unlinks it in O(1): it is the head of
// the sorted waiters. The word is written once: owner, protocol bit (pi,
// 0 or mutex::pi_bit) and the next waiter. Masked.
__attribute__((always_inline)) inline void hand_over(mutex& m, std::uint32_t pi, tcb* next) noexcept {
    const tcb* after = next->next_wait;
    const std::uint32_t waiters =
        after == nullptr ? 0u : static_cast<std::uint32_t>(static_cast<std::uint16_t>(after->id));
    mutex_access::word(m) = (waiters << mutex::waiter_shift) | pi | static_cast<std::uint16_t>(next->id);
    ++next->n_held;
    next->next_wait = nullptr;
    next->waiting_for = nullptr;
}

// unlock_inherit(m, owner_pid, next) is unlock() of a protocol::inherit
// mutex: the bookkeeping of held mutexes and priorities around the
// handoff. Out of line so the plain unlock() keeps a small frame. Masked.
__attribute__((noinline)) void unlock_inherit(mutex& m, pid owner_pid, tcb* next) noexcept {
    tcb* old = lookup(owner_pid);
    KAIROS_ASSERT(!port::in_isr() && old == current);  // only the owner unlocks
    release(old, &m);
    --old->n_held;
    if (next == nullptr) {
        set_owner(m, no_pid);
    } else {
        hand_over(m, mutex::pi_bit, next);
        hold(next, &m);
        make_runnable(next);       // first: it is queued nowhere else any more
        recompute_priority(next);  // inherits from the waiters still queued
    }
    if (old != nullptr) recompute_priority(old);  // drop what this mutex lent
    // The old owner may have lost an inherited priority (RIOT 1d99f4f), and
    // the new one's may have changed after make_runnable() decided.
    if (running && rq.best_prio() < current->prio) port::request_switch();
}

}  // namespace

void mutex::lock() noexcept {
    const port::irq_state s = port::irq_disable();
    assert_can_block(s);
    tcb* self_tcb = current;
    const std::uint32_t w = word_;
    if ((w & pid_mask) == 0) {  // free: no waiters either
        word_ = w | static_cast<std::uint16_t>(self_tcb->id);
        ++self_tcb->n_held;
        if ((w & pi_bit) != 0) hold(self_tcb, this);
        port::irq_restore_kernel(s);
        return;
    }
    KAIROS_ASSERT((word_ & pi_bit) == 0 || owner() != self_tcb->id);  // relocking an inheritance mutex
    wait_for_mutex(*this, self_tcb);
    port::irq_restore_kernel(s);  // switches; back here once unlock() handed us the mutex
}

bool mutex::try_lock() noexcept {
    irq_guard g;
    KAIROS_ASSERT(!port::in_isr());
    if (owner() != no_pid) return false;
    take(*this, current);
    if ((word_ & pi_bit) != 0) hold(current, this);
    return true;
}

void mutex::unlock() noexcept {
    const port::irq_state s = port::irq_disable();
    const std::uint32_t w = word_;
    const pid owner_pid = static_cast<pid>(w & pid_mask);
    KAIROS_ASSERT(owner_pid != no_pid);  // unlocking an unlocked mutex
    KAIROS_TRACE_EVENT(mutex_unlock, reinterpret_cast<std::uintptr_t>(this), owner_pid);
    if ((w & pi_bit) != 0) {
        unlock_inherit(*this, owner_pid, first_waiter(w));
    } else {
        --owner_slot(owner_pid)->n_held;  // the owner, not necessarily the caller
        if (tcb* next = first_waiter(w)) {
            hand_over(*this, 0, next);
            make_runnable(next);
        } else {
            word_ = 0;  // plain (no protocol bit), no owner, no waiters
        }
    }
    port::irq_restore_kernel(s);  // make_runnable() asked for a switch if next beats us
}

}  // namespace kairos::kernel

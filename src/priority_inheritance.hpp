// SPDX-License-Identifier: MIT
// Priority inheritance (protocol::inherit mutexes): what the mutex paths
// compile in (the uncontended lock's bookkeeping, the raise of a contended
// lock, the unlock), and the declarations of priority_inheritance.cpp
// (recomputing an owner's priority, taking back what a waiter lent at its
// deadline). The kernel moves a thread whose priority changes with
// set_priority() (sched.cpp), which calls inherit_raise() for a waiter.
// A part of kernel_impl.hpp, which includes it once what it uses is
// defined: include kernel_impl.hpp, not this. Masked, like all of it.
#pragma once

namespace kairos::kernel::impl {

// recompute_priority(t): base priority raised by the first waiter of each
// inheritance mutex t holds. Masked.
void recompute_priority(tcb* t) noexcept;

// inherit_hold(t, m): t became the owner of m, an inheritance mutex; t
// records it so that its waiters keep raising t until t unlocks it
// (recompute_priority()). Inline: the uncontended lock() of an inheritance
// mutex is this and the word's store.
inline void inherit_hold(tcb* t, mutex* m) noexcept {
    KAIROS_ASSERT(t->n_held_pi < KAIROS_MUTEX_MAX_HELD);  // raise KAIROS_MUTEX_MAX_HELD
    t->held_pi[t->n_held_pi++] = m;
}

// inherit_raise(w, p): a thread of priority p waits on the mutex whose
// word is w; if it is an inheritance mutex, its owner is raised to p (and,
// through set_priority(), the owners along a chain). Always inline: it is
// part of wait_for_mutex(), on every contended lock().
__attribute__((always_inline)) inline void inherit_raise(std::uint32_t w, unsigned p) noexcept {
    if ((w & mutex::pi_bit) != 0) {  // the bit never changes
        tcb* o = lookup(static_cast<pid>(w & mutex::pid_mask));
        if (o != nullptr && p < o->prio) set_priority(o, p);
    }
}

namespace {

// release(t, m): t no longer owns m; drops it from t's held_pi.
inline void release(tcb* t, const mutex* m) noexcept {
    for (unsigned i = 0; i < t->n_held_pi; ++i) {
        if (t->held_pi[i] == m) {
            t->held_pi[i] = t->held_pi[--t->n_held_pi];
            t->held_pi[t->n_held_pi] = nullptr;
            return;
        }
    }
}

// unlock_inherit(m, owner_pid, next) is unlock() of a protocol::inherit
// mutex: the bookkeeping of held mutexes and priorities around the
// handoff to next (the first waiter, or nullptr). Masked. Out of line so
// the plain unlock() keeps a small frame; defined here rather than in
// priority_inheritance.cpp so that it is compiled with its one caller
// (mutex.cpp), where it shares the out-of-line copies of make_runnable()
// and lookup() with the plain lock() and unlock() instead of each file
// inlining its own (docs/targets.md, "Code size").
__attribute__((noinline)) inline void unlock_inherit(mutex& m, pid owner_pid, tcb* next) noexcept {
    tcb* old = lookup(owner_pid);
    KAIROS_ASSERT(!port::in_isr() && old == current);  // only the owner unlocks
    release(old, &m);
    --old->n_held;
    if (next == nullptr) {
        set_owner(m, no_pid);
    } else {
        hand_over(m, mutex::pi_bit, next);
        inherit_hold(next, &m);
        make_runnable(next);       // first: it is queued nowhere else any more
        recompute_priority(next);  // inherits from the waiters still queued
    }
    if (old != nullptr) recompute_priority(old);  // drop what this mutex lent
    // The old owner may have lost an inherited priority (RIOT 1d99f4f), and
    // the new one's may have changed after make_runnable() decided.
    if (started && rq.best_prio() < current->prio) port::request_switch();
}

}  // namespace

// inherit_withdraw(m): a waiter of m, an inheritance mutex, gave up at its
// deadline and is already off m's waiters; what it lent m's owner, and
// along a chain of owners blocked on further inheritance mutexes, is taken
// back. Masked. Called by mutex_timed_out() only.
void inherit_withdraw(const mutex& m) noexcept;

}  // namespace kairos::kernel::impl

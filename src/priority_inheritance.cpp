// SPDX-License-Identifier: MIT
// Priority inheritance (protocol::inherit mutexes), out of line: an owner's
// priority from the waiters of what it holds, and taking back what a
// waiter lent when it gives up at its deadline. What the mutex paths
// compile in (lock bookkeeping, the raise, the unlock) is in
// priority_inheritance.hpp.
#include "kernel_impl.hpp"

namespace kairos::kernel::impl {

void recompute_priority(tcb* t) noexcept {
    unsigned p = t->base_prio;
    for (unsigned i = 0; i < t->n_held_pi; ++i) {
        const tcb* w = first_waiter(t->held_pi[i]->word());
        if (w != nullptr && w->prio < p) p = w->prio;
    }
    set_priority(t, p);
}

void inherit_withdraw(const mutex& m) noexcept {
    // Bounded: a cycle of owners is a deadlock.
    tcb* o = lookup(m.owner());
    for (unsigned hops = 0; o != nullptr && hops < max_threads; ++hops) {
        recompute_priority(o);
        const mutex* next = o->st == thread_state::blocked_mutex ? o->waiting_for : nullptr;
        if (next == nullptr || (next->word() & mutex::pi_bit) == 0) break;
        o = lookup(next->owner());
    }
}

}  // namespace kairos::kernel::impl

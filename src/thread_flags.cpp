// SPDX-License-Identifier: MIT
// thread flags: set from any context, wait any/all/one (the waits with a
// deadline: thread_flags_timed.cpp).
#include "thread_flags_impl.hpp"

namespace kairos::kernel {

using namespace impl;

// flags_set() is flatten: the pid lookup and the wake-up are inlined, as
// it is the whole path of a flags hand-off (and of an isr's wake-up).
__attribute__((flatten)) int flags_set(pid p, flags_t f) noexcept {
    irq_guard g;
    tcb* t = lookup(p);
    if (t == nullptr) return err_bad_pid;
    t->flags |= f;
    KAIROS_TRACE_EVENT(flags_set, p, f);
    if (t->st == thread_state::blocked_flags && satisfied(t)) make_runnable(t);
    return 0;
}

flags_t flags_clear(flags_t f) noexcept {
    irq_guard g;
    const flags_t was = current->flags & f;
    current->flags &= ~f;
    return was;
}

flags_t flags_wait_any(flags_t mask) noexcept { return wait(mask, wait_any, timeout_forever); }
flags_t flags_wait_all(flags_t mask) noexcept { return wait(mask, wait_all, timeout_forever); }
flags_t flags_wait_one(flags_t mask) noexcept { return wait(mask, wait_one, timeout_forever); }

flags_t flags_get(pid p) noexcept {
    irq_guard g;
    const tcb* t = lookup(p);
    return t == nullptr ? 0 : t->flags;
}

}  // namespace kairos::kernel

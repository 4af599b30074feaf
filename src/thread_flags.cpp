// SPDX-License-Identifier: MIT
// thread flags: set from any context, wait any/all/one.
#include "kernel_impl.hpp"

namespace kairos::kernel {

using namespace impl;

namespace {

bool satisfied(const tcb* t) noexcept {
    const flags_t got = t->flags & t->wait_mask;
    return t->wait_mode == wait_all ? got == t->wait_mask : got != 0;
}

// take(t, mode, mask) clears and returns what a satisfied wait consumes.
flags_t take(tcb* t, std::uint8_t mode, flags_t mask) noexcept {
    flags_t got = t->flags & mask;
    if (mode == wait_one) got &= 0u - got;  // lowest set flag only
    t->flags &= ~got;
    return got;
}

// wait(mask, mode, us) is every flags wait: us timeout_forever or more
// (the plain waits) arms no deadline, us 0 only tries. Always inline, so
// the plain waits keep their untimed path.
__attribute__((always_inline)) inline flags_t wait(flags_t mask, std::uint8_t mode,
                                                   std::uint64_t us) noexcept {
    KAIROS_ASSERT(mask != 0);
    const port::irq_state s = port::irq_disable();
    if (us != 0) assert_can_block(s);
    tcb* t = current;
    t->wait_mask = mask;
    t->wait_mode = mode;
    if (!satisfied(t) && us != 0) {
        if (us < timeout_forever) arm_deadline(t, us);
        block_current(thread_state::blocked_flags);
        port::irq_restore_kernel(s);  // back once flags_set() satisfied the wait, or at the deadline
        port::irq_disable();
        if (us < timeout_forever) disarm_deadline(t);  // still armed when flags_set() woke us
    }
    // A wait without deadline comes back only satisfied (flags_set() wakes
    // it then and nothing else does), so only a timed or trying wait tests
    // again: not satisfied, the deadline passed (or us 0), and 0 is returned.
    const flags_t got = (us >= timeout_forever || satisfied(t)) ? take(t, mode, mask) : 0;
    t->wait_mode = 0;
    port::irq_restore_kernel(s);
    return got;
}

}  // namespace

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
flags_t flags_wait_any_for(flags_t mask, std::uint64_t us) noexcept { return wait(mask, wait_any, us); }
flags_t flags_wait_all_for(flags_t mask, std::uint64_t us) noexcept { return wait(mask, wait_all, us); }
flags_t flags_wait_one_for(flags_t mask, std::uint64_t us) noexcept { return wait(mask, wait_one, us); }

flags_t flags_get(pid p) noexcept {
    irq_guard g;
    const tcb* t = lookup(p);
    return t == nullptr ? 0 : t->flags;
}

}  // namespace kairos::kernel

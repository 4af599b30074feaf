// SPDX-License-Identifier: MIT
// The thread flags wait, shared by the plain waits and flags_set()
// (thread_flags.cpp) and the waits with a deadline
// (thread_flags_timed.cpp). Private to those two files.
#pragma once

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
// (the plain waits, thread_flags.cpp) arms no deadline, us 0 only tries
// (thread_flags_timed.cpp has the others). Always inline, so the plain
// waits keep their untimed path.
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

}  // namespace kairos::kernel

// SPDX-License-Identifier: MIT
// mutex: sorted waiters, direct handoff; priority inheritance
// (protocol::inherit) is in priority_inheritance.hpp and .cpp.
#include "kernel_impl.hpp"

namespace kairos::kernel {

using namespace impl;

namespace {

// take(m, t): t, running or the first waiter, becomes the owner of m.
// n_held counts the mutexes of either protocol a thread owns, so that
// exit() can refuse to end a thread that still owns one.
__attribute__((always_inline)) inline void take(mutex& m, tcb* t) noexcept {
    set_owner(m, t->id);
    ++t->n_held;
    KAIROS_TRACE_EVENT(mutex_lock, reinterpret_cast<std::uintptr_t>(&m), t->id);
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
        if ((w & pi_bit) != 0) inherit_hold(self_tcb, this);
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
    if ((word_ & pi_bit) != 0) inherit_hold(current, this);
    return true;
}

void mutex::unlock() noexcept {
    const port::irq_state s = port::irq_disable();
    const std::uint32_t w = word_;
    const pid owner_pid = static_cast<pid>(w & pid_mask);
    KAIROS_ASSERT(owner_pid != no_pid);  // unlocking an unlocked mutex
    KAIROS_TRACE_EVENT(mutex_unlock, reinterpret_cast<std::uintptr_t>(this), owner_pid);
    // The protocol bit is bit 15: the sign of the low halfword, one shift
    // on Thumb-1 rather than a mask built in a register.
    if (static_cast<std::int16_t>(w) < 0) {
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

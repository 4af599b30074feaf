// SPDX-License-Identifier: MIT
// mutex::lock_for(): a mutex wait with a deadline. Its own file so that
// the timeout path (and the kernel's weak call of mutex_timed_out() when a
// deadline expires) is linked only by programs that use it.
#include "kernel_impl.hpp"

namespace kairos::kernel {

using namespace impl;

void impl::mutex_timed_out(tcb* t) noexcept {
    mutex& m = *t->waiting_for;
    const std::uint32_t w = m.word();
    tcb* head = first_waiter(w);
    prio_queue_remove(head, t);
    mutex_access::set_waiters(m, w, head);
    t->waiting_for = nullptr;
    // Queued nowhere from here on (expire() makes it pending next), so that
    // inherit_withdraw() may change t's own priority when a deadlock cycle
    // leads back to it.
    t->st = thread_state::sleeping;
    if ((m.word() & mutex::pi_bit) != 0) inherit_withdraw(m);
}

bool mutex::lock_for(std::uint64_t us) noexcept {
    for (;;) {
        if (try_lock()) return true;
        if (us == 0) return false;
        const port::irq_state s = port::irq_disable();
        assert_can_block(s);
        if (owner() == no_pid) {  // released since try_lock(): try again
            port::irq_restore_kernel(s);
            continue;
        }
        tcb* self_tcb = current;
        KAIROS_ASSERT((word_ & pi_bit) == 0 || owner() != self_tcb->id);  // relocking an inheritance mutex
        arm_deadline(self_tcb, us);  // none for no_timeout and other huge values
        wait_for_mutex(*this, self_tcb);
        port::irq_restore_kernel(s);  // waits; back after a handoff or at the deadline
        irq_guard g;
        disarm_deadline(self_tcb);  // still armed after a handoff
        return owner() == self_tcb->id;
    }
}

}  // namespace kairos::kernel

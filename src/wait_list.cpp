// SPDX-License-Identifier: MIT
// Wait lists of the kernel objects that block in blocked_wait (semaphore,
// condition variable, queue): one sorted list per object, linked through
// the waiters' next_wait like a mutex's waiters, with deadlines on the
// kernel's one timer queue (arm_deadline()). Its own file so that a
// program using none of those objects links none of it.
#include "kernel_impl.hpp"

namespace kairos::kernel::impl {

void wait_block(tcb*& list, std::uint64_t us, void* data) noexcept {
    tcb* self_tcb = current;
    prio_queue_insert(list, self_tcb);
    self_tcb->wait_list = &list;
    self_tcb->wait_data = data;
    arm_deadline(self_tcb, us);  // none for timeout_forever and above
    block_current(thread_state::blocked_wait);
}

bool wait_masked(tcb*& list, port::irq_state s, std::uint64_t us, void* data) noexcept {
    if (us == 0) {
        port::irq_restore_kernel(s);
        return false;
    }
    assert_can_block(s);
    wait_block(list, us, data);
    port::irq_restore_kernel(s);  // waits; back when a waker served us, or at the deadline
    return wait_done(current);  // nobody writes our slot's wait fields once we run
}

tcb* wait_wake(tcb*& list) noexcept {
    tcb* t = list;
    if (t == nullptr) return nullptr;
    list = t->next_wait;
    t->next_wait = nullptr;
    t->wait_list = nullptr;  // served: wait_done() is true
    disarm_deadline(t);
    make_runnable(t);
    return t;
}

void wait_timed_out(tcb* t) noexcept {
    prio_queue_remove(*t->wait_list, t);  // wait_list stays set: wait_done() is false
    t->st = thread_state::sleeping;       // queued nowhere; expire() makes it pending
}

void wait_requeue(tcb* t, unsigned p) noexcept {
    prio_queue_remove(*t->wait_list, t);
    t->prio = static_cast<std::uint16_t>(p);
    prio_queue_insert(*t->wait_list, t);
}

}  // namespace kairos::kernel::impl

// SPDX-License-Identifier: MIT
// Deadlines: arming a thread's timer (arm_deadline(), sleep_us()) and
// expiring the due ones (expire(), which the scheduler calls through a weak
// reference). Its own file so that a program whose threads never wait with
// a deadline links none of the timer queue's code: only arm_deadline() arms
// a thread's timer, so while the queue is empty the scheduler never calls
// expire(), and a program that calls none of the timed functions (which
// live in their own files: msg_timed.cpp, thread_flags_timed.cpp,
// mutex_timeout.cpp) does not link this file.
#include "kernel_impl.hpp"

namespace kairos::kernel {

using namespace impl;

tcb* impl::timer_owner(timer_node* n) noexcept {
    const auto d = reinterpret_cast<unsigned char*>(n) - reinterpret_cast<unsigned char*>(&threads[0].timer);
    return &threads[static_cast<std::size_t>(d) / sizeof(tcb)];
}

void impl::arm_deadline(tcb* t, std::uint64_t us) noexcept {
    if (us >= timeout_forever) return;  // no deadline: now + us could wrap
    timers.arm(t->timer, port::now_us() + us);
    slow_pick = slow_pick_on;
}

void impl::expire(std::uint64_t now) noexcept {
    while (timer_node* n = timers.pop_due(now)) {
        tcb* t = timer_owner(n);
        switch (t->st) {
            case thread_state::sleeping:
            case thread_state::blocked_receive:  // the waits that are in no queue
            case thread_state::blocked_reply:
            case thread_state::blocked_flags:
                break;
            case thread_state::blocked_send: {  // off the receiver's senders
                tcb* r = receiver_of(t);
                if (r != nullptr) prio_queue_remove(r->senders, t);
                break;
            }
            case thread_state::blocked_mutex:
                mutex_timed_out(t);  // then sleeping: not queued anywhere
                break;
            case thread_state::blocked_wait:
                wait_timed_out(t);  // off the object's waiters
                break;
            default:
                continue;  // the deadline of a thread a waker already made runnable
        }
        KAIROS_TRACE_READY(t);
        make_ready(t);  // no switch request: the caller decides next
    }
}

void sleep_us(std::uint64_t us) noexcept {
    const port::irq_state s = port::irq_disable();
    assert_can_block(s);
    arm_deadline(current, us);
    block_current(thread_state::sleeping);
    port::irq_restore_kernel(s);
}

}  // namespace kairos::kernel

// SPDX-License-Identifier: MIT
// The work queue's thread (kairos/kernel/work_queue.hpp): its passes, its
// sleep between them and its wake-up. A program that uses no work queue
// does not link this file.
#include <kairos/kernel/work_queue.hpp>

#include "kernel_impl.hpp"

namespace kairos {

using namespace kernel::impl;

int work_queue_base::start_thread(unsigned prio, void* stack, std::size_t size,
                                  const char* name, void (*entry)(void*)) noexcept {
    KAIROS_ASSERT(!port::in_isr());
    {
        irq_guard g;
        // relaxed: under the mask, which orders it against stop() and serve().
        if (state_.load(std::memory_order_relaxed) != idle) return err_started;
        // The previous thread clears state_ just before it returns: it may
        // still be on the stack the caller passes again. (Its pid alone
        // could name another thread after kernel::reset().)
        if (const tcb* t = lookup(last_pid_);
            t != nullptr && t->fn == entry && t->arg == this) {
            return err_started;
        }
        waiting_ = false;
        pending_ = false;
        // release: a producer that sees running (started(), acquire) sees
        // the wake hook the caller installed.
        state_.store(running, std::memory_order_release);
    }
    // The thread may run before this returns (a higher priority than the
    // caller's): serve() records its own pid.
    const kernel::pid p = kernel::thread_create(stack, size, prio, entry, this, name);
    if (p < 0) {
        // release: as above; work scheduled meanwhile stays queued.
        state_.store(idle, std::memory_order_release);
    }
    return p;
}

int work_queue_base::stop() noexcept {
    irq_guard g;
    // relaxed: under the mask (as start_thread()).
    if (state_.load(std::memory_order_relaxed) != running) return err_not_started;
    // release: schedule calls that see stopping refuse; nothing else to publish.
    state_.store(stopping, std::memory_order_release);
    wake(this);
    return 0;
}

void work_queue_base::wake(void* q) noexcept {
    work_queue_base& w = *static_cast<work_queue_base*>(q);
    irq_guard g;
    if (w.waiting_) {
        // Between passes, asleep in sleep_until_woken(): wake it. A thread
        // in a work item that itself sleeps is not waiting_, so its sleep
        // is left alone; the next pass sees the new work.
        w.waiting_ = false;
        // relaxed: written by serve() before it first waits, under the mask.
        (void)kernel::wakeup(static_cast<kernel::pid>(w.pid_.load(std::memory_order_relaxed)));
    } else {
        w.pending_ = true;
    }
}

// sleep_until_woken(delay) ends a pass: the thread sleeps for delay µs of
// kernel time (no_deadline: until woken), unless a wake-up came since the
// last sleep, delay is 0 or the queue is stopping. The check and the sleep
// are one masked step, so a wake-up between the pass and the sleep is not
// lost.
void work_queue_base::sleep_until_woken(std::uint64_t delay_us) noexcept {
    port::irq_state s = port::irq_disable();
    assert_can_block(s);
    // relaxed: under the mask.
    if (pending_ || delay_us == 0 || state_.load(std::memory_order_relaxed) != running) {
        pending_ = false;
        port::irq_restore_kernel(s);
        return;
    }
    waiting_ = true;
    arm_deadline(current, delay_us);  // no_deadline arms nothing (>= timeout_forever)
    block_current(kernel::thread_state::sleeping);
    port::irq_restore_kernel(s);  // the thread sleeps here
    s = port::irq_disable();
    waiting_ = false;  // woken by the deadline, or by a wakeup() of someone else
    port::irq_restore_kernel(s);
}

void work_queue_base::serve(pass_fn pass) noexcept {
    work_queue_base& q = *this;
    {
        irq_guard g;
        q.last_pid_ = kernel::self();
        // relaxed: read by wake() and thread() under the mask or as a snapshot.
        q.pid_.store(q.last_pid_, std::memory_order_relaxed);
    }
    // acquire: pairs with stop()'s release (nothing is published with it,
    // but a stopping queue must not start another pass).
    while (q.state_.load(std::memory_order_acquire) == running) {
        q.sleep_until_woken(pass(q));
    }
    irq_guard g;
    q.pid_.store(kernel::no_pid, std::memory_order_relaxed);  // relaxed: as above
    // release: pairs with nothing (start() reads state_ under the mask and
    // checks that this thread has exited before it reuses the stack).
    q.state_.store(idle, std::memory_order_release);
}

}  // namespace kairos

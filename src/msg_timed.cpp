// SPDX-License-Identifier: MIT
// msg with a deadline: send_for(), send_receive_for(), receive_for(). Their
// own file, the only msg code that arms a deadline (arm_deadline(),
// deadline.cpp), so that a program using only the plain calls links none
// of the deadline code.
#include "msg_impl.hpp"

namespace kairos::kernel {

namespace {

// wait_timed(self, s, us, st) blocks the caller, already queued wherever
// state st needs, with a deadline us from now, and returns masked again
// after the wake-up or the deadline, the deadline disarmed (still armed
// after a wake-up). s: what irq_disable() returned.
void wait_timed(tcb* self_tcb, port::irq_state s, std::uint64_t us, thread_state st) noexcept {
    arm_deadline(self_tcb, us);  // none from timeout_forever up
    block_current(st);
    port::irq_restore_kernel(s);  // waits
    port::irq_disable();
    disarm_deadline(self_tcb);
}

}  // namespace

int send_for(msg& m, pid to, std::uint64_t us) noexcept {
    const port::irq_state s = port::irq_disable();
    if (us != 0) assert_can_block(s);
    tcb* t = lookup(to);
    tcb* self_tcb = current;
    int r = 1;
    if (t == nullptr) {
        r = err_bad_pid;
    } else if (m.sender = self_tcb->id, t->st == thread_state::blocked_receive) {
        deliver(t, m);
    } else if (queue_push(t, m)) {
    } else if (t == self_tcb) {  // only a queue could take it
        r = err_bad_pid;
    } else if (us == 0) {
        r = 0;
    } else {
        self_tcb->msg_slot = &m;
        self_tcb->wants_reply = false;
        prio_queue_insert(t->senders, self_tcb);
        wait_timed(self_tcb, s, us, thread_state::blocked_send);
        r = released(self_tcb);
        // A taker clears msg_slot; a deadline (expire()) leaves it.
        if (r == 1 && self_tcb->msg_slot != nullptr) r = 0;
        self_tcb->msg_slot = nullptr;
    }
    port::irq_restore_kernel(s);
    return r;
}

int send_receive_for(msg& m, msg& reply_to, pid to, std::uint64_t us) noexcept {
    const port::irq_state s = port::irq_disable();
    if (us != 0) assert_can_block(s);
    tcb* t = lookup(to);
    tcb* self_tcb = current;
    if (t == nullptr || t == self_tcb || us == 0) {
        port::irq_restore_kernel(s);
        return t == nullptr || t == self_tcb ? err_bad_pid : 0;
    }
    m.sender = self_tcb->id;
    self_tcb->reply_slot = &reply_to;
    thread_state st = thread_state::blocked_reply;
    if (t->st == thread_state::blocked_receive) {
        deliver(t, m);
    } else {
        self_tcb->msg_slot = &m;
        self_tcb->wants_reply = true;
        prio_queue_insert(t->senders, self_tcb);
        st = thread_state::blocked_send;
    }
    wait_timed(self_tcb, s, us, st);
    int r = released(self_tcb);
    // reply() clears reply_slot; a deadline, in either state, leaves it.
    if (r == 1 && self_tcb->reply_slot != nullptr) r = 0;
    self_tcb->reply_slot = nullptr;
    self_tcb->msg_slot = nullptr;
    self_tcb->wants_reply = false;
    port::irq_restore_kernel(s);
    return r;
}

bool receive_for(msg& m, std::uint64_t us) noexcept {
    const port::irq_state s = port::irq_disable();
    if (us != 0) assert_can_block(s);
    tcb* self_tcb = current;
    bool got = true;
    if (queue_pop(self_tcb, m)) {
        refill(self_tcb);
    } else if (take_sender(self_tcb, m)) {
    } else if (us == 0) {
        got = false;
    } else {
        self_tcb->msg_slot = &m;
        wait_timed(self_tcb, s, us, thread_state::blocked_receive);
        got = self_tcb->msg_slot == nullptr;  // deliver() clears it, a deadline leaves it
        self_tcb->msg_slot = nullptr;
    }
    port::irq_restore_kernel(s);
    return got;
}

}  // namespace kairos::kernel

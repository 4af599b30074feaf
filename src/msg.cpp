// SPDX-License-Identifier: MIT
// msg: rendezvous send/receive, optional queue, send_receive/reply.
#include "kernel_impl.hpp"

namespace kairos::kernel {

using namespace impl;

namespace {

// The helpers below are the hand-off of send() and receive(), and of their
// _for forms: always inline, so that the second caller does not turn them
// into calls on the plain path (docs/targets.md).
#define KAIROS_MSG_INLINE __attribute__((always_inline)) inline

KAIROS_MSG_INLINE bool queue_push(tcb* t, const msg& m) noexcept {
    if (t->queue == nullptr || t->q_count > t->q_mask) return false;
    t->queue[(t->q_head + t->q_count) & t->q_mask] = m;
    ++t->q_count;
    KAIROS_TRACE_EVENT(msg_send, t->id, m.type);
    return true;
}

KAIROS_MSG_INLINE bool queue_pop(tcb* t, msg& m) noexcept {
    if (t->q_count == 0) return false;
    m = t->queue[t->q_head];
    t->q_head = static_cast<std::uint16_t>((t->q_head + 1) & t->q_mask);
    --t->q_count;
    KAIROS_TRACE_EVENT(msg_receive, m.sender, m.type);
    return true;
}

// deliver(t, m): t waits in receive(); copy and wake it.
KAIROS_MSG_INLINE void deliver(tcb* t, const msg& m) noexcept {
    *t->msg_slot = m;
    t->msg_slot = nullptr;
    KAIROS_TRACE_EVENT(msg_send, t->id, m.type);
    make_runnable(t);
}

// take_sender(self, m): take the first blocked sender's message.
KAIROS_MSG_INLINE bool take_sender(tcb* self_tcb, msg& m) noexcept {
    tcb* s = self_tcb->senders;
    if (s == nullptr) return false;
    prio_queue_remove(self_tcb->senders, s);
    m = *s->msg_slot;
    KAIROS_TRACE_EVENT(msg_receive, m.sender, m.type);
    if (s->wants_reply) {
        s->st = thread_state::blocked_reply;  // stays blocked until reply()
    } else {
        s->msg_slot = nullptr;
        make_runnable(s);
    }
    return true;
}

// refill(self): after a queued message was taken, move one blocked plain
// sender into the freed queue slot so it can go on.
KAIROS_MSG_INLINE void refill(tcb* self_tcb) noexcept {
    tcb* s = self_tcb->senders;
    if (s == nullptr || s->wants_reply) return;
    prio_queue_remove(self_tcb->senders, s);
    queue_push(self_tcb, *s->msg_slot);
    s->msg_slot = nullptr;
    make_runnable(s);
}

// released(self): the result of a send that blocked: 1, or err_bad_pid
// when exit() of the receiver released it (the flag is cleared for the
// next send). Only exit() sets the flag, while self is blocked.
int released(tcb* self_tcb) noexcept {
    if (!self_tcb->peer_exited) return 1;
    self_tcb->peer_exited = false;
    return err_bad_pid;
}

}  // namespace

int msg_init_queue(msg* buf, unsigned n) noexcept {
    if (buf == nullptr || n == 0 || n > 32768 || (n & (n - 1)) != 0) return err_bad_size;
    irq_guard g;
    current->queue = buf;
    current->q_mask = static_cast<std::uint16_t>(n - 1);
    current->q_head = current->q_count = 0;
    return 0;
}

int send(msg& m, pid to) noexcept {
    const port::irq_state s = port::irq_disable();
    assert_can_block(s);
    tcb* t = lookup(to);
    if (t == nullptr) {
        port::irq_restore_kernel(s);
        return err_bad_pid;
    }
    tcb* self_tcb = current;
    m.sender = self_tcb->id;
    if (t->st == thread_state::blocked_receive) {
        deliver(t, m);
    } else if (!queue_push(t, m)) {
        if (t == self_tcb) {  // only a queue could take it: waiting would be forever
            port::irq_restore_kernel(s);
            return err_bad_pid;
        }
        self_tcb->msg_slot = &m;
        self_tcb->wants_reply = false;
        prio_queue_insert(t->senders, self_tcb);
        block_current(thread_state::blocked_send);
        port::irq_restore_kernel(s);  // back when taken, or when the receiver exited
        return released(self_tcb);
    }
    port::irq_restore_kernel(s);
    return 1;
}

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

int try_send(msg& m, pid to) noexcept {
    irq_guard g;
    tcb* t = lookup(to);
    if (t == nullptr) return err_bad_pid;
    m.sender = port::in_isr() ? no_pid : current->id;
    if (t->st == thread_state::blocked_receive) {
        deliver(t, m);
        return 1;
    }
    if (queue_push(t, m)) return 1;
    ++t->dropped;
    return 0;
}

int send_receive(msg& m, msg& reply_to, pid to) noexcept {
    const port::irq_state s = port::irq_disable();
    assert_can_block(s);
    tcb* t = lookup(to);
    if (t == nullptr || t == current) {
        port::irq_restore_kernel(s);
        return err_bad_pid;
    }
    tcb* self_tcb = current;
    m.sender = self_tcb->id;
    self_tcb->reply_slot = &reply_to;
    if (t->st == thread_state::blocked_receive) {
        deliver(t, m);
        block_current(thread_state::blocked_reply);
    } else {
        self_tcb->msg_slot = &m;
        self_tcb->wants_reply = true;
        prio_queue_insert(t->senders, self_tcb);
        block_current(thread_state::blocked_send);
    }
    port::irq_restore_kernel(s);  // back after reply(), or when the receiver exited unserved
    return released(self_tcb);
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

void receive(msg& m) noexcept {
    const port::irq_state s = port::irq_disable();
    assert_can_block(s);
    tcb* self_tcb = current;
    if (queue_pop(self_tcb, m)) {
        refill(self_tcb);
    } else if (!take_sender(self_tcb, m)) {
        self_tcb->msg_slot = &m;
        block_current(thread_state::blocked_receive);
    }
    port::irq_restore_kernel(s);  // if blocked: back with m filled in by the sender
}

bool try_receive(msg& m) noexcept {
    irq_guard g;
    tcb* self_tcb = current;
    if (queue_pop(self_tcb, m)) {
        refill(self_tcb);
        return true;
    }
    return take_sender(self_tcb, m);
}

int reply(const msg& m, msg& r) noexcept {
    irq_guard g;
    tcb* t = lookup(m.sender);
    if (t == nullptr || t->st != thread_state::blocked_reply) return err_not_waiting;
    r.sender = port::in_isr() ? no_pid : current->id;
    *t->reply_slot = r;
    t->reply_slot = nullptr;
    t->msg_slot = nullptr;
    t->wants_reply = false;
    make_runnable(t);
    return 1;
}

std::uint32_t msg_dropped(pid p) noexcept {
    irq_guard g;
    const tcb* t = lookup(p);
    return t == nullptr ? 0 : t->dropped;
}

}  // namespace kairos::kernel

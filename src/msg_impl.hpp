// SPDX-License-Identifier: MIT
// msg's hand-off helpers, shared by the plain calls (msg.cpp) and the ones
// with a deadline (msg_timed.cpp). Private to those two files.
#pragma once

#include "kernel_impl.hpp"

namespace kairos::kernel {

using namespace impl;

namespace {

// The helpers below are the hand-off of send() and receive() (msg.cpp), and
// of their _for forms (msg_timed.cpp): always inline, so that another
// caller does not turn them into calls on the plain path (docs/targets.md).
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

}  // namespace kairos::kernel

// SPDX-License-Identifier: MIT
// msg: rendezvous send/receive, optional queue, send_receive/reply (the
// forms with a deadline: msg_timed.cpp).
#include "msg_impl.hpp"

namespace kairos::kernel {

using namespace impl;

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

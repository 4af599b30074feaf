// SPDX-License-Identifier: MIT
// queue_base: the ring, direct hand-off to a waiting receiver, refill from
// a waiting sender; waits on the shared wait lists (wait_list.cpp).
#include <kairos/kernel/queue.hpp>

#include "kernel_impl.hpp"

namespace kairos::kernel {

using namespace impl;

void queue_base::construct(void* dst, void* src) const noexcept {
    if (ops_ == nullptr) {
        __builtin_memcpy(dst, src, element_size_);
    } else {
        ops_->construct(dst, src);
    }
}

void queue_base::assign(void* dst, void* src) const noexcept {
    if (ops_ == nullptr) {
        __builtin_memcpy(dst, src, element_size_);
    } else {
        ops_->assign(dst, src);
    }
}

// push(item) moves item into the slot after the newest; false when full.
bool queue_base::push(void* item) noexcept {
    if (count_ == capacity_) return false;
    unsigned i = head_ + count_;
    if (i >= capacity_) i -= capacity_;
    construct(slot(i), item);
    ++count_;
    return true;
}

// drop_oldest() ends the oldest element and frees its slot. Precondition:
// count_ != 0.
void queue_base::drop_oldest() noexcept {
    if (ops_ != nullptr) ops_->destroy(slot(head_));
    head_ = static_cast<std::uint16_t>(head_ + 1 == capacity_ ? 0 : head_ + 1);
    --count_;
}

bool queue_base::send_raw(void* item, std::uint64_t us) noexcept {
    KAIROS_ASSERT(us == 0 || !port::in_isr());  // an isr uses try_send()
    const port::irq_state s = port::irq_disable();
    if (tcb* r = receivers_) {  // the queue is empty: straight into its buffer
        assign(r->wait_data, item);
        (void)wait_wake(receivers_);
    } else if (!push(item)) {
        if (wait_masked(senders_, s, us, item)) return true;  // a receiver took item
        irq_guard g;
        ++dropped_;
        return false;
    }
    port::irq_restore_kernel(s);
    return true;
}

bool queue_base::receive_raw(void* out, std::uint64_t us) noexcept {
    KAIROS_ASSERT(us == 0 || !port::in_isr());  // an isr uses try_receive()
    const port::irq_state s = port::irq_disable();
    if (count_ != 0) {
        assign(out, slot(head_));
        drop_oldest();
        if (tcb* w = senders_) {  // the queue was full: the first waiting sender's item goes in
            (void)push(w->wait_data);
            (void)wait_wake(senders_);
        }
        port::irq_restore_kernel(s);
        return true;
    }
    return wait_masked(receivers_, s, us, out);  // true: a sender filled out
}

void queue_base::clear() noexcept {
    irq_guard g;
    while (count_ != 0) drop_oldest();
}

}  // namespace kairos::kernel

// SPDX-License-Identifier: MIT
// kairos/kernel/msg.hpp: 8-byte messages between threads (RIOT core/msg).
//
// send() is a rendezvous: the message is copied straight into a receiver
// waiting in receive(); otherwise into the receiver's queue if it has one
// with room; otherwise the sender blocks (senders wait in priority order,
// FIFO among equals) until the receiver takes it. try_send() never blocks
// and is the way to send from an interrupt. send_receive() sends and then
// waits for the receiver's reply().
#pragma once

#include <kairos/kernel/thread.hpp>

#include <cstdint>

namespace kairos::kernel {

// msg: 8 bytes on every target. sender is filled in by the kernel.
struct msg {
    pid sender = no_pid;
    std::uint16_t type = 0;
    std::uint32_t value = 0;
};
static_assert(sizeof(msg) == 8, "msg is 8 bytes");

// msg_init_queue(buf, n) gives the running thread a queue of n messages in
// buf (a power of two, 1..32768), so senders do not block while it is busy.
// Returns 0 or err_bad_size. Context: thread, before it receives.
int msg_init_queue(msg* buf, unsigned n) noexcept;

// send(m, to) delivers m to thread `to` (see above), blocking if needed.
// Returns 1 when delivered or queued; err_bad_pid if `to` does not exist,
// if `to` is the caller and its queue has no room (or it has none: it
// would wait for itself), or if `to` exits while the caller waits, before
// taking m. Context: thread, interrupts enabled. From an isr use
// try_send().
int send(msg& m, pid to) noexcept;

// try_send(m, to) delivers or queues m without blocking. Returns 1 if
// delivered or queued, 0 if the receiver is not waiting and its queue is
// full or absent (counted in msg_dropped(to)), err_bad_pid. Context: any.
[[nodiscard]] int try_send(msg& m, pid to) noexcept;

// receive(m) takes the next message: from the queue, else from the first
// blocked sender, else blocks until one arrives. Context: thread.
void receive(msg& m) noexcept;

// try_receive(m) takes a message if one is available. Context: thread.
[[nodiscard]] bool try_receive(msg& m) noexcept;

// send_receive(m, reply, to) sends m (rendezvous, never through the queue)
// and blocks until `to` calls reply(); the reply lands in `reply` (m and
// reply may be the same object). Returns 1, or err_bad_pid if `to` does
// not exist, is the caller, or exits before taking m (once it took m the
// reply may come from any thread, so its exit does not end the wait).
// Context: thread.
int send_receive(msg& m, msg& reply, pid to) noexcept;

// reply(m, r) answers m, which a thread sent with send_receive(): r is
// copied into that thread's reply buffer and it becomes runnable. Returns 1,
// or err_not_waiting if m.sender is not waiting for a reply. Context: any.
int reply(const msg& m, msg& r) noexcept;

// msg_dropped(p) counts try_send() calls to p that found no room.
std::uint32_t msg_dropped(pid p) noexcept;

}  // namespace kairos::kernel

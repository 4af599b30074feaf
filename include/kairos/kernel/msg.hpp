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

// Deadlines (thread.hpp): each blocking call has a _for(us) form and an
// _until(deadline_us) form, _until(d) being _for(timeout_until(d)). us 0
// only tries; us >= timeout_forever (UINT64_MAX included) and
// deadline_forever wait without a deadline. The return value tells a
// timeout from success. Context of all of them: thread, interrupts enabled
// (assertion), unless us is 0.

// receive_for(m, us) is receive() giving up after us microseconds of
// port::now_us(): true with a message in m, false at the deadline (m
// unchanged).
[[nodiscard]] bool receive_for(msg& m, std::uint64_t us) noexcept;
[[nodiscard]] inline bool receive_until(msg& m, std::uint64_t deadline_us) noexcept {
    return receive_for(m, timeout_until(deadline_us));
}

// send_for(m, to, us) is send() giving up after us microseconds: 1 when
// delivered or queued, 0 at the deadline (m not delivered: the caller left
// the receiver's senders), err_bad_pid as send().
int send_for(msg& m, pid to, std::uint64_t us) noexcept;
inline int send_until(msg& m, pid to, std::uint64_t deadline_us) noexcept {
    return send_for(m, to, timeout_until(deadline_us));
}

// send_receive_for(m, reply, to, us) is send_receive() giving up after us
// microseconds: 1 with the reply, 0 at the deadline, err_bad_pid as
// send_receive(). At the deadline the receiver may already have taken m;
// its reply() then returns err_not_waiting and `reply` is left unchanged.
// A reply needs the caller to wait, so us 0 sends nothing and returns 0
// (or err_bad_pid).
int send_receive_for(msg& m, msg& reply, pid to, std::uint64_t us) noexcept;
inline int send_receive_until(msg& m, msg& reply, pid to, std::uint64_t deadline_us) noexcept {
    return send_receive_for(m, reply, to, timeout_until(deadline_us));
}

// reply(m, r) answers m, which a thread sent with send_receive(): r is
// copied into that thread's reply buffer and it becomes runnable. Returns 1,
// or err_not_waiting if m.sender is not waiting for a reply. Context: any.
int reply(const msg& m, msg& r) noexcept;

// msg_dropped(p) counts try_send() calls to p that found no room.
std::uint32_t msg_dropped(pid p) noexcept;

}  // namespace kairos::kernel

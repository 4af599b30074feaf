// SPDX-License-Identifier: MIT
// kairos/kernel/condvar.hpp: a condition variable over a kairos::mutex
// (Zephyr k_condvar, RIOT cond, POSIX pthread_cond).
#pragma once

#include <kairos/kernel/mutex.hpp>
#include <kairos/kernel/thread.hpp>

#include <cstdint>

namespace kairos::kernel {

namespace impl {
struct tcb;
}

// condvar lets threads wait, with a mutex they own, until another thread
// or an interrupt signals a change of the state that mutex protects.
// wait() releases the mutex and blocks in one step (no signal can fall in
// between), and takes the mutex again before it returns, through
// mutex::lock(): it waits among the mutex's waiters by priority, and a
// protocol::inherit mutex lends the waiter's priority to its owner as any
// lock() does. Waiters are woken in priority order, FIFO among equals, and
// a waiter whose priority changes moves in the queue. A wake-up says the
// state may have changed: re-check the predicate in a loop. Not movable
// (waiters refer to it). All state is touched with interrupts masked.
class condvar {
public:
    constexpr condvar() noexcept = default;
    condvar(const condvar&) = delete;
    condvar& operator=(const condvar&) = delete;

    // wait(m) releases m, blocks until signal() or broadcast() wakes the
    // caller, then locks m again. Precondition: the caller owns m
    // (assertion). Context: thread, interrupts enabled (assertion).
    void wait(mutex& m) noexcept;

    // wait_for(m, us) is wait() that stops waiting for a signal after us
    // microseconds of port::now_us(): true if signalled, false at the
    // deadline. Either way it returns owning m (re-taking m has no
    // deadline). wait_for(m, 0) only releases and re-takes m (a waiter for
    // m may get it in between); us >= timeout_forever (UINT64_MAX
    // included) is wait().
    // Context: thread, interrupts enabled (assertion).
    bool wait_for(mutex& m, std::uint64_t us) noexcept;
    // wait_until(m, deadline_us) is wait_for(m, timeout_until(deadline_us)).
    bool wait_until(mutex& m, std::uint64_t deadline_us) noexcept {
        return wait_for(m, timeout_until(deadline_us));
    }

    // signal() wakes the first waiter, if any (it then runs when it beats
    // the caller and gets the mutex). Returns whether a thread was woken.
    // Context: any (from an isr it only requests a switch).
    bool signal() noexcept;

    // broadcast() wakes every waiter, in priority order, and returns how
    // many. Interrupts stay masked while it wakes them: a bounded time, as
    // at most max_threads threads wait. Context: any.
    unsigned broadcast() noexcept;

private:
    impl::tcb* waiters_ = nullptr;  // priority order, linked through the threads' slots
};

}  // namespace kairos::kernel

// SPDX-License-Identifier: MIT
// kairos/kernel/thread.hpp: threads and the scheduler.
//
// Fixed-priority preemptive scheduling in RIOT's model: priority 0 is the
// highest; the highest-priority runnable thread runs; threads of equal
// priority run in FIFO order and only yield() rotates them, unless time
// slicing is compiled in (KAIROS_TIME_SLICE_US, kernel/config.hpp). Stacks are static and supplied by the caller; the kernel
// allocates nothing. Interrupt handlers never switch: they mark threads
// runnable and request a switch, which the port performs at interrupt exit
// (Cortex-M) or at the interrupted thread's next kernel entry (hosts). See
// docs/kernel.md.
//
// Contexts (as in port.hpp): "thread" = a kairos thread, "isr" = an
// interrupt or host signal handler attached through the port, "any" = both.
// Functions that block require a thread with interrupts enabled.
#pragma once

#include <kairos/kernel/config.hpp>

#include <cstddef>
#include <cstdint>

namespace kairos::kernel {

// pid names a thread: positive, its low bits the thread's slot and the bits
// above a generation that changes each time the slot is reused, so a pid
// kept after its thread exited is refused (err_bad_pid, state() stopped)
// rather than naming the slot's next thread. 0 is "no thread".
using pid = std::int16_t;
inline constexpr pid no_pid = 0;

// error: the negative results of kernel calls.
enum error : int {
    err_priority = -1,     // priority outside 0..prio_levels-2, or the idle thread's
    err_stack_size = -2,   // stack smaller than stack_min() or null
    err_stack_align = -3,  // stack base not aligned to port::stack_align
    err_no_slot = -4,      // thread table full
    err_bad_pid = -5,      // pid names no live thread (never used, exited, stale), or
                           // a send() that could only wait for the caller itself
    err_not_waiting = -6,  // reply(): the sender is not waiting for a reply
    err_bad_size = -7,     // msg queue size not a power of two
};

enum class thread_state : std::uint8_t {
    stopped,          // slot free, or the thread exited
    sleeping,         // sleep() or sleep_us(): until wakeup() or the deadline
    blocked_mutex,    // in mutex::lock()
    blocked_receive,  // in msg receive()
    blocked_send,     // in msg send(): receiver busy and its queue full
    blocked_reply,    // in msg send_receive(): waiting for reply()
    blocked_flags,    // in flags wait_*()
    blocked_wait,     // in a semaphore, condition variable or queue wait
    pending,          // runnable, waiting for the CPU
    running,          // the current thread
};

// Flags of thread_create().
enum create_flags : unsigned {
    create_default = 0,
    create_sleeping = 1u << 0,  // start in sleeping state; wakeup() starts it
    create_no_yield = 1u << 1,  // do not switch even if the new thread is higher
};

// stack_min() returns the smallest stack thread_create() accepts on this
// port, a multiple of port::stack_align: enough for a thread whose own
// function needs only a small frame to make any kernel call, be interrupted
// (the port's interrupt or signal frame) and idle the kernel on its stack
// (the initial frame, the port's own record, the canary and the kernel's
// frames). Size real stacks for their code on top of it.
std::size_t stack_min() noexcept;

// thread_create(stack, size, prio, fn, arg, name, flags) starts fn(arg) as
// a thread on the caller-provided stack [stack, stack + size) and returns
// its pid (> 0). When fn returns the thread exits. name is kept by pointer
// and shown in diagnostics. Unless create_sleeping or create_no_yield, a
// new thread of higher priority than the caller runs before this returns.
// Errors (no thread created): err_priority if prio >= prio_levels - 1 (the
// lowest level is reserved for the idle thread), err_stack_size if stack is
// null or size < stack_min(), err_stack_align if stack is not a multiple of
// port::stack_align (size is rounded down to it), err_no_slot when all
// max_threads slots are live. Context: thread, or before run().
pid thread_create(void* stack, std::size_t size, unsigned prio, void (*fn)(void*), void* arg,
                  const char* name, unsigned flags = create_default) noexcept;

// self() returns the running thread's pid, no_pid outside run(). Context:
// thread.
pid self() noexcept;

// yield() moves the running thread to the end of its priority level and
// runs the best runnable thread (possibly itself again). Context: thread.
void yield() noexcept;

// yield_higher() switches only if a thread of higher priority is runnable;
// the running thread keeps its place in its level. Context: thread.
void yield_higher() noexcept;

// sleep() blocks the running thread until wakeup(self()). Context: thread.
void sleep() noexcept;

// timeout_forever: timeouts from this value up (2^62 µs, 146 000 years,
// UINT64_MAX included) have no deadline: the wait lasts until something
// else ends it. Smaller ones are deadlines now_us() + timeout, which stay
// correctly ordered across the 64-bit wrap (time.hpp).
inline constexpr std::uint64_t timeout_forever = std::uint64_t{1} << 62;

// deadline_forever: the absolute deadline of a wait without one. Every
// blocking call has a _for(us) form (a timeout, saturating at
// timeout_forever) and an _until(deadline_us) form (an instant on the
// port::now_us() time line); _until(d) is _for(timeout_until(d)).
inline constexpr std::uint64_t deadline_forever = UINT64_MAX;

// timeout_until(d) is the timeout that ends at instant d: 0 if d is now or
// past (the _until call only tries), d - now_us() if d is ahead (2^62 µs or
// more ahead saturates: no deadline), timeout_forever for
// deadline_forever. The wait ends at d or later, never earlier. Context: any.
std::uint64_t timeout_until(std::uint64_t deadline_us) noexcept;

// sleep_us(us) blocks the running thread for at least us microseconds of
// port::now_us(), or until wakeup(); us >= timeout_forever is sleep().
// Deadlines are checked at every scheduling decision and while idle; there
// is no tick, so on hosts a busy thread that never enters the kernel delays
// them. Context: thread.
void sleep_us(std::uint64_t us) noexcept;

// wakeup(p) makes a sleeping thread runnable. Returns 1 if it was asleep,
// 0 if it exists but was not sleeping, err_bad_pid otherwise. From an isr
// it only requests a switch. Only sleep() and sleep_us() are ended by it: a
// thread in any other wait, with or without a deadline (receive_for(),
// flags_wait_any_until(), take_for(), ...), is left alone (0), and its wait
// still ends only by success or at its deadline; an ISR ends such a wait
// through the object (flags_set(), try_send(), give()). Context: any.
int wakeup(pid p) noexcept;

// change_priority(p, prio) sets the base priority of thread p; the
// effective priority stays raised while p holds an inheritance mutex that
// a higher-priority thread waits for. Switches if p now beats the running
// thread (or the running thread lost its place). Returns 0, err_bad_pid,
// or err_priority if prio >= prio_levels - 1 or p is the idle thread (its
// level is its own). Context: any.
int change_priority(pid p, unsigned prio) noexcept;

// exit() ends the running thread; its slot becomes free and its pid stale.
// Threads blocked in send() or send_receive() to it, whose messages it did
// not take, return err_bad_pid. Exiting while owning a mutex (either
// protocol) is a panic ("thread exited holding a mutex"). Context: thread.
// Never returns.
[[noreturn]] void exit() noexcept;

// state(p) returns the state of p (stopped for unused slots and bad pids).
// Context: any.
thread_state state(pid p) noexcept;

// priority(p) returns the effective priority of p, or -1 for a bad pid.
int priority(pid p) noexcept;

// name(p) returns the name given to thread_create(), or nullptr.
const char* name(pid p) noexcept;

// stack_unused(p) returns the high-water mark of p's stack as bytes never
// written since creation (stacks are filled with a pattern at creation), or
// 0 for a bad pid. Context: thread; reads the whole unused part.
std::size_t stack_unused(pid p) noexcept;

// run_options: how run() idles and when it returns.
struct run_options {
    // With an idle thread (at the lowest level, on idle_stack) the idle hook
    // runs in it between waits. Without one, the scheduler waits for
    // interrupts inside the switch (port::idle()) on the last thread's stack:
    // one stack less, and wake-ups arriving together are coalesced.
    bool idle_thread = false;
    void* idle_stack = nullptr;
    std::size_t idle_stack_size = 0;
    void (*idle_hook)() = nullptr;  // called by the idle thread before each wait
    // return_when_idle: run() returns when no thread is runnable and none is
    // sleeping with a deadline (all exited, or all blocked on each other or
    // on interrupts). Host tests use it; firmware leaves it false and waits
    // for interrupts forever.
    bool return_when_idle = false;
};

// run(o) starts scheduling from the caller's context (e.g. main()) and
// returns, if o.return_when_idle, when nothing can run any more, with the
// number of threads that did not exit. Context: thread (the boot context),
// interrupts enabled; not from inside a kairos thread.
int run(const run_options& o = {}) noexcept;

// reset() forgets every thread (all slots free) so another run() can start
// from scratch; for tests. Context: outside run().
void reset() noexcept;

// live_threads() returns the number of threads that have not exited.
unsigned live_threads() noexcept;

}  // namespace kairos::kernel

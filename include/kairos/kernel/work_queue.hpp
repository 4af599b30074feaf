// SPDX-License-Identifier: MIT
// kairos/kernel/work_queue.hpp: a kernel thread that runs deferred work.
//
//   kairos::work_queue<16> wq;                       // 16 immediate slots
//   alignas(kairos::port::stack_align) unsigned char wq_stack[1024];
//   wq.start(2, wq_stack, sizeof wq_stack);           // priority 2
//   wq.schedule([] { handle_rx(); });                 // from an ISR: runs in wq's thread
//   auto h = wq.schedule_after(5000, [] { retry(); }); // once, 5 ms from now
//   auto p = wq.schedule_every(10'000, [] { poll(); });
//   h.cancel();                                        // any context
//
// The queue is a kairos::deferred scheduler whose consumer is one kernel
// thread: schedule() pushes onto its lock-free ring, schedule_after() and
// schedule_every() register in its recurrent pool on the kernel's time line
// (port::now_us(), the clock sleep_us() deadlines use), and the deferred
// wake hook wakes the thread. The thread runs the immediate work in FIFO
// order, then the timed work that is due, and sleeps until the next due time
// or the next wake. Nothing is allocated: the callables live in the queue's
// slots (at most FnSize bytes each: a larger one is a compile-time error).
// It is what FreeRTOS's xTimerPendFunctionCallFromISR() (the timer service
// task) and Zephyr's k_work / k_work_delayable on the system work queue
// do, and RIOT's event_thread with event_timeout; see docs/kernel.md.
//
// Work runs in the queue's thread at its priority, one item at a time, so
// items never preempt each other; an item may block (a mutex, sleep_us())
// but delays every item behind it. An item may schedule more work (itself
// included): immediate work scheduled by a running item runs in the next
// pass, after the items already queued.
//
// Contexts (as in kernel/thread.hpp):
//   schedule(), schedule_after(), schedule_every(), handle::cancel(),
//   handle::active(), overflows(), stop(), started()      any (isr too)
//   start()                                                thread, or before kernel::run()
//
// Producers are kernel threads and interrupt handlers of the core the kernel
// runs on (on hosts: the kernel's threads and the signal handlers attached
// through the port): the wake-up is ordered by the kernel's interrupt mask.
#pragma once

#include <kairos/config.hpp>
#include <kairos/deferred.hpp>
#include <kairos/inplace_function.hpp>
#include <kairos/kernel/thread.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace kairos {

// work_queue_base is the part of every work queue that does not depend on
// its sizes (src/work_queue.cpp): the thread, its sleep and its wake-up.
class work_queue_base {
public:
    // err_started: start() on a queue whose thread is running or stopping.
    static constexpr int err_started = -16;
    // err_not_started: stop() on a queue that is not running.
    static constexpr int err_not_started = -17;

    work_queue_base(const work_queue_base&) = delete;
    work_queue_base& operator=(const work_queue_base&) = delete;

    // thread() is the pid of the queue's thread, no_pid when it is not
    // running. Context: any.
    kernel::pid thread() const noexcept {
        return static_cast<kernel::pid>(pid_.load(std::memory_order_relaxed));  // a snapshot
    }

    // started() is true from a successful start() until stop(): the queue
    // accepts work. Context: any.
    bool started() const noexcept {
        // acquire: pairs with start()'s release (the wake hook is installed).
        return state_.load(std::memory_order_acquire) == running;
    }

    // stop() asks the thread to exit and returns 0 (err_not_started if the
    // queue is not running). From then on every schedule call is refused.
    // The thread exits at the end of the pass under way, if any (the items
    // that pass had taken in still run); work queued after it stays
    // queued (not run, not destroyed) and runs when the queue is started
    // again, from the same object. Returns at once: thread() is no_pid
    // once the thread is gone.
    // Context: any, a work item of this queue included.
    int stop() noexcept;

protected:
    // pass_fn runs one pass of the queue's scheduler (immediate work, then
    // due timed work) and returns how long the thread may sleep (0: more is
    // due, no_deadline: nothing timed).
    using pass_fn = std::uint64_t (*)(work_queue_base& q) noexcept;

    // The state is all zero (no function pointer stored), so a global
    // queue is constant-initialized in .bss, not .data.
    constexpr work_queue_base() noexcept = default;
    ~work_queue_base() = default;

    // start_thread(prio, stack, size, name, entry) creates the thread (see
    // work_queue::start()) running entry(this), which must call
    // serve(pass). Precondition: the wake hook is installed.
    int start_thread(unsigned prio, void* stack, std::size_t size, const char* name,
                     void (*entry)(void*)) noexcept;

    // serve(pass) is the thread's body: passes and sleeps until stop().
    void serve(pass_fn pass) noexcept;

    // wake(q) is the scheduler's wake hook: wakes the thread of queue q if
    // it sleeps between passes, else makes its next sleep return at once.
    // Context: any.
    static void wake(void* q) noexcept;

    enum : std::uint32_t { idle, running, stopping };

private:
    void sleep_until_woken(std::uint64_t delay_us) noexcept;

    std::atomic<std::uint32_t> state_{idle};
    std::atomic<std::int32_t> pid_{kernel::no_pid};
    kernel::pid last_pid_ = kernel::no_pid;  // the latest thread, until it has exited; masked
    // Under the kernel's interrupt mask: waiting_ while the thread sleeps
    // between passes, pending_ when a wake-up came while it did not.
    bool waiting_ = false;
    bool pending_ = false;
};

// work_queue<Capacity, FnSize, TimedCapacity>:
//   Capacity       immediate work items queued at once (a power of two >= 2)
//   FnSize         bytes of each item's callable (captures)
//   TimedCapacity  delayed and periodic items registered at once (>= 1)
template <std::size_t Capacity = 16, std::size_t FnSize = default_inplace_size,
          std::size_t TimedCapacity = 8>
class work_queue : public work_queue_base {
public:
    using scheduler = deferred<Capacity, TimedCapacity, FnSize>;
    // handle names one delayed or periodic item: cancel() and active() as
    // in deferred::handle (any context). An empty handle (false) means the
    // item was refused.
    using handle = typename scheduler::handle;

    static constexpr std::size_t capacity = Capacity;
    static constexpr std::size_t timed_capacity = TimedCapacity;
    static constexpr std::size_t fn_size = FnSize;

    // constexpr and all-zero: a global queue is constant-initialized.
    constexpr work_queue() noexcept = default;

    // start(prio, stack, size, name) starts the queue's thread at priority
    // prio on [stack, stack + size) and returns its pid (> 0), or: any error
    // of kernel::thread_create() (err_priority, err_stack_size,
    // err_stack_align, err_no_slot), err_started if the queue runs or its
    // thread has not exited since stop(). Work queued before a stop() runs.
    // Context: thread, or before kernel::run(); not from an isr (asserted).
    int start(unsigned prio, void* stack, std::size_t size, const char* name = "workq") noexcept {
        KAIROS_ASSERT(!port::in_isr());
        d_.set_wake_hook(&work_queue_base::wake, static_cast<work_queue_base*>(this));
        return start_thread(prio, stack, size, name, &entry);
    }

    // schedule(f) queues f (void()) to run once in the queue's thread, after
    // the immediate items queued before it. Returns true when queued; false
    // when the ring is full (counted: overflows()), when the queue is not
    // started (not counted) or f is a null function (not counted).
    // Immediate items cannot be cancelled: use schedule_after(0, f) for one
    // that can. Context: any; lock-free, no allocation.
    template <class F>
    [[nodiscard]] bool schedule(F&& f) noexcept {
        if (!started()) return false;
        return d_.schedule(std::forward<F>(f));
    }

    // schedule_after(us, f) runs f (void()) once in the queue's thread,
    // us microseconds of kernel time from now (0: at the next pass, after
    // the immediate items). Returns a handle to cancel it; an empty handle
    // when the timed pool is full (counted: overflows()), the queue is not
    // started or f is null. Precondition: us < kernel::timeout_forever
    // (assertion). Context: any; lock-free, no allocation.
    template <class F>
    handle schedule_after(std::uint64_t us, F&& f) noexcept {
        KAIROS_ASSERT(us < kernel::timeout_forever);
        if (!started() || detail::is_null_callable(f)) return handle{};
        return d_.schedule_recurrent(
            [fn = std::forward<F>(f)]() mutable {
                fn();
                return false;  // once
            },
            us);
    }

    // schedule_every(period_us, f) runs f every period_us microseconds of
    // kernel time, the first time one period from now, until the handle is
    // cancelled or, when f returns bool, until f returns false. Periods the
    // thread missed (it was busy or preempted) are skipped, not run in a
    // burst; the phase is kept. Returns a handle; an empty one when the
    // pool is full (counted), the queue is not started, f is null or
    // period_us is 0 (a zero period is refused: it would run on every pass
    // and never let the thread sleep). Precondition: period_us <
    // kernel::timeout_forever (assertion). Context: any; lock-free.
    template <class F>
    handle schedule_every(std::uint64_t period_us, F&& f) noexcept {
        KAIROS_ASSERT(period_us < kernel::timeout_forever);
        if (period_us == 0 || !started() || detail::is_null_callable(f)) return handle{};
        if constexpr (std::is_same_v<std::invoke_result_t<std::decay_t<F>&>, bool>) {
            return d_.schedule_recurrent(std::forward<F>(f), period_us);
        } else {
            return d_.schedule_recurrent(
                [fn = std::forward<F>(f)]() mutable {
                    fn();
                    return true;
                },
                period_us);
        }
    }

    // overflows() counts work refused because the ring (schedule()) or the
    // timed pool (schedule_after(), schedule_every()) was full. Context: any.
    std::uint32_t overflows() const noexcept {
        return d_.overflows() + d_.recurrent_overflows();
    }

    // pending() is the number of immediate items queued (an estimate
    // outside the queue's thread). Context: any.
    std::size_t pending() const noexcept { return d_.pending(); }

private:
    static void entry(void* self) noexcept {
        static_cast<work_queue*>(self)->serve(&pass);
    }

    static std::uint64_t pass(work_queue_base& b) noexcept {
        scheduler& d = static_cast<work_queue&>(b).d_;
        d.run();
        // Without timed items (one relaxed load when nothing changed) the
        // pass reads no clock: run_recurrent() would read it to find nothing.
        if (d.recurrent_count() != 0) d.run_recurrent();
        return d.delay_us();
    }

    scheduler d_;
};

}  // namespace kairos

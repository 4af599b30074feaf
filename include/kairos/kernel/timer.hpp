// SPDX-License-Identifier: MIT
// kairos/kernel/timer.hpp: one-shot and periodic software timers whose
// callbacks run in a work queue's thread, never in an interrupt.
//
//   kairos::work_queue<> wq;                    // started elsewhere
//   kairos::timer<decltype(wq)> blink{wq, [] { led_toggle(); }};
//   blink.start_periodic(500'000);              // every 0.5 s, from a thread or an ISR
//   blink.restart();                            // same period, phase from now
//   blink.stop();                               // no call starts after this returns
//
// A timer is a handle on one timed item of its queue (work_queue's
// schedule_after() / schedule_every()) plus its callback: arming registers
// an item that calls the callback in the queue's thread, on kernel time
// (port::now_us()); re-arming cancels the item and registers a new one. The
// callback runs at the queue's priority, after the queue's earlier work, so
// its lateness is the queue's; periods a busy queue missed are skipped, not
// run in a burst. FreeRTOS software timers (xTimerStart/xTimerReset/
// xTimerStop, the FromISR forms; callbacks in the timer service task),
// Zephyr's k_timer with its expiry function submitting to a work queue, and
// RIOT's ztimer with an event_callback_t posted to an event thread are the
// equivalents; see docs/kernel.md.
//
// Contexts:
//   start_once(), start_periodic(), restart(), stop(), active()   any (isr too)
//   constructor, destructor                                       thread
// The control functions mask interrupts (the kernel's lock) while they
// cancel the old item and register the new one: a bounded section (one
// CAS, and a scan of at most the queue's TimedCapacity slots), so one
// timer may be controlled from threads and interrupts at once.
//
// Stop guarantee: once stop() (or a start or restart, for the previous
// arming) has returned, the callback of the stopped arming does not start,
// even if it was already due and its pass of the queue had taken it in: the
// queue checks the cancellation just before each call. A call that has
// already started (stop() from inside the callback, or from an interrupt
// or a higher-priority thread that preempted the queue during the call)
// runs to its end: stop() never waits, since it may be called from an
// interrupt. A one-shot timer that fired is no longer active.
//
// Slots: an armed timer holds one timed slot of its queue. The slot a
// re-arm gives up is freed at the queue's next pass, so a timer re-armed
// again and again while its queue cannot run (a lower-priority queue under
// an interrupt storm) holds one slot per re-arm until the queue runs; a
// re-arm that finds no free slot returns false, leaves the timer stopped
// and is counted in the queue's overflows().
#pragma once

#include <kairos/config.hpp>
#include <kairos/inplace_function.hpp>
#include <kairos/port.hpp>

#include <cstdint>
#include <utility>

namespace kairos {

template <class Queue>
class timer {
public:
    // callback: what the timer calls, in the queue's thread; up to the
    // queue's FnSize bytes of captures.
    using callback = inplace_function<void(), Queue::fn_size>;

    // timer(q, cb) makes a stopped timer on queue q. q must outlive it.
    template <class F>
    timer(Queue& q, F&& cb) noexcept : queue_(q), cb_(std::forward<F>(cb)) {}
    timer(const timer&) = delete;
    timer& operator=(const timer&) = delete;

    // ~timer() stops it. Precondition: its callback is not running (a
    // call under way would use the destroyed timer). Context: thread.
    ~timer() { (void)stop(); }

    // start_once(delay_us) arms the timer to call the callback once,
    // delay_us µs of kernel time from now (0: at the queue's next pass),
    // replacing any earlier arming (which will not run). Returns false,
    // leaving the timer stopped, if the queue refused: not started, no free
    // timed slot (counted), or an empty callback. Precondition: delay_us <
    // kernel::timeout_forever (2^62; assertion). Context: any.
    bool start_once(std::uint64_t delay_us) noexcept { return arm(delay_us, false); }

    // start_periodic(period_us) arms the timer to call the callback every
    // period_us µs, the first time one period from now, replacing any
    // earlier arming. Returns false as start_once(), and for period_us == 0
    // (a zero period is refused). Context: any.
    bool start_periodic(std::uint64_t period_us) noexcept { return arm(period_us, true); }

    // restart() re-arms the timer with the delay or period and the kind of
    // its last start, counted from now (a watchdog's kick). Returns false if
    // it was never started, or as start_once(). Context: any.
    bool restart() noexcept {
        const port::irq_state s = port::irq_disable();
        const bool ok = started_ && arm_masked(interval_, periodic_);
        port::irq_restore(s);
        return ok;
    }

    // stop() disarms the timer: true if an arming was pending (a one-shot
    // not yet called, or a periodic timer), false if it was already
    // stopped or its one shot had been called. See the stop guarantee
    // above. Context: any.
    bool stop() noexcept {
        const port::irq_state s = port::irq_disable();
        const bool was = handle_.cancel();
        port::irq_restore(s);
        return was;
    }

    // active() is true while an arming is pending. Context: any.
    bool active() const noexcept {
        const port::irq_state s = port::irq_disable();  // handle_ is replaced under the mask
        const bool a = handle_.active();
        port::irq_restore(s);
        return a;
    }

private:
    bool arm(std::uint64_t us, bool periodic) noexcept {
        const port::irq_state s = port::irq_disable();
        interval_ = us;
        periodic_ = periodic;
        started_ = true;
        const bool ok = arm_masked(us, periodic);
        port::irq_restore(s);
        return ok;
    }

    // arm_masked(us, periodic) replaces the current arming. Masked.
    bool arm_masked(std::uint64_t us, bool periodic) noexcept {
        (void)handle_.cancel();
        if (!cb_) {
            handle_ = typename Queue::handle{};
            return false;
        }
        handle_ = periodic ? queue_.schedule_every(us, [this] { cb_(); })
                           : queue_.schedule_after(us, [this] { cb_(); });
        return static_cast<bool>(handle_);
    }

    Queue& queue_;
    callback cb_;
    typename Queue::handle handle_{};
    // The last start's arguments (restart()); masked.
    std::uint64_t interval_ = 0;
    bool periodic_ = false;
    bool started_ = false;
};

}  // namespace kairos

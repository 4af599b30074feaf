// kairos/deferred.hpp: the deferred-function scheduler. One-shot functions
// scheduled from any context and run later by the main loop, plus recurrent
// functions on the 64-bit microsecond time line.
//
//   kairos::deferred<32> d;                       // 32 one-shot slots
//   d.schedule([=] { handle(msg); });             // ISR, signal handler, thread
//   auto h = d.schedule_recurrent([] { poll(); return true; }, 10'000);
//   for (;;) { d.run(); d.run_recurrent(); sleep_at_most(d.delay_us()); }
//
// One-shot functions live in a kairos::mpsc_ring of type-erased callables
// stored in the slots (inplace_function): schedule() is lock-free (one CAS
// on the ring head, retried only when another producer won it; a short
// critical section on cores without CAS) and allocates nothing. run() runs
// them in FIFO order and stops at the count it saw on entry, so a function
// that schedules more work (or itself) does not starve the loop.
//
// Recurrent functions sit in a fixed pool and are armed in a timer_queue
// sorted by due time: a pass with nothing due reads the clock once and
// compares once, whatever the number of registered functions (functions with
// an alarm are polled every pass, by definition of an alarm).
//
// Contexts (see docs/deferred.md):
//   schedule(), overflows()                            any (ISR, signal, thread)
//   run(), run_recurrent(), schedule_recurrent(),
//   handle::cancel(), next_due(), delay_us(),
//   set_wake_hook()                                    task: the one consumer
#pragma once

#include <kairos/config.hpp>
#include <kairos/inplace_function.hpp>
#include <kairos/mpsc_ring.hpp>
#include <kairos/time.hpp>
#include <kairos/timer_queue.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace kairos {

// no_deadline is what delay_us() returns when nothing is armed.
inline constexpr std::uint64_t no_deadline = ~std::uint64_t{0};

// deferred<Capacity, RecurrentCapacity, FnSize> is the scheduler.
//   Capacity           one-shot slots (a power of two >= 2: the ring's mask)
//   RecurrentCapacity  recurrent entries (any number >= 1)
//   FnSize             bytes of the in-slot buffer of each callable
template <std::size_t Capacity = 32, std::size_t RecurrentCapacity = 32,
          std::size_t FnSize = default_inplace_size>
class deferred {
    static_assert(Capacity >= 2 && (Capacity & (Capacity - 1)) == 0,
                  "deferred: Capacity must be a power of two >= 2 (it is the ring size)");
    static_assert(RecurrentCapacity >= 1 && RecurrentCapacity <= 0xFFFF,
                  "deferred: RecurrentCapacity must be between 1 and 65535");

public:
    using task = inplace_function<void(), FnSize>;
    using recurrent_fn = inplace_function<bool(), FnSize>;
    // wake_fn is the wake hook: called by schedule() after a successful push,
    // in the producer's context, so it must be async-signal-safe on hosts
    // (sem_post, write to an eventfd/pipe) and ISR-safe on MCUs.
    using wake_fn = void (*)(void* ctx) noexcept;

    static constexpr std::size_t capacity = Capacity;
    static constexpr std::size_t recurrent_capacity = RecurrentCapacity;

    class handle;

    // deferred() uses the port's clock, port::now_us(). constexpr, and the
    // empty state is all zero, so a global scheduler is constant-initialized
    // in .bss with no start-up code (docs/targets.md, "Code size").
    constexpr deferred() noexcept = default;
    // deferred(clock) uses clock as its time base.
    constexpr explicit deferred(clock_source clock) noexcept : clock_(clock) {}
    deferred(const deferred&) = delete;
    deferred& operator=(const deferred&) = delete;

    // ---- one-shot functions ------------------------------------------------

    // schedule(f) queues f to run once at the next run(). Context: any,
    // including an ISR, a signal handler and a running function. Lock-free,
    // no allocation: f is moved (or copied) into a ring slot. Returns false
    // if the queue is full (overflows() counts it) or f is a null function
    // pointer / empty std::function (not counted). A callable larger than
    // FnSize is a compile-time error.
    template <class F>
    [[nodiscard]] bool schedule(F&& f) noexcept {
        if constexpr (std::is_same_v<std::decay_t<F>, std::nullptr_t>) {
            return false;
        } else {
            if (detail::is_null_callable(f)) return false;
            // A full ring refuses the push and counts it (overflows()).
            if (!queue_.try_emplace(std::forward<F>(f))) return false;
            // acquire: pairs with set_wake_hook's release, so ctx is visible.
            if (wake_fn w = wake_.load(std::memory_order_acquire)) {
                // relaxed: ordered by the acquire on wake_ above.
                w(wake_ctx_.load(std::memory_order_relaxed));
            }
            return true;
        }
    }

    // run() runs the one-shot functions that were queued when it started,
    // oldest first, and returns how many ran. Functions scheduled while it
    // runs wait for the next run(). Context: task, the single consumer. A
    // nested call (from a running function) returns 0 at once.
    std::size_t run() noexcept {
        if (running_) return 0;
        running_ = true;
        const std::size_t snapshot = queue_.size();
        std::size_t done = 0;
        // Each function runs in place (the callable is never moved again).
        // try_consume() stops at a slot whose producer reserved it but has
        // not finished writing it (interrupted mid-push), keeping FIFO.
        while (done < snapshot && queue_.try_consume([](task&& t) { t(); })) ++done;
        running_ = false;
        return done;
    }

    // pending() is the number of queued one-shot functions. Exact only from
    // the consumer while no producer is mid-push; otherwise an estimate.
    std::size_t pending() const noexcept { return queue_.size(); }

    // overflows() counts schedule() calls that found the queue full.
    // Context: any.
    std::uint32_t overflows() const noexcept { return queue_.failed_pushes(); }

    // set_wake_hook(fn, ctx) installs (fn non-null) or removes the wake hook.
    // Context: task, before producers start or while none runs (a producer
    // racing with a change may call the old fn with the new ctx).
    void set_wake_hook(wake_fn fn, void* ctx) noexcept {
        // relaxed: published by the release store of wake_ below.
        wake_ctx_.store(ctx, std::memory_order_relaxed);
        // release: a producer that sees fn also sees ctx.
        wake_.store(fn, std::memory_order_release);
    }

    // ---- recurrent functions -----------------------------------------------

    // schedule_recurrent(f, period_us, alarm) registers f (returning bool)
    // to run every period_us microseconds, the first time one period from
    // now; period 0 runs it on every run_recurrent(). f returning false
    // removes it. alarm (optional, returning bool) is polled on every pass;
    // true runs f in that pass even if it is not due, without moving its
    // phase. Missed periods are skipped, not run in a burst. Returns a handle
    // (false when the pool is full: recurrent_overflows() counts it).
    // Context: task (also from inside running functions, not from alarms).
    // Precondition: period_us < 2^62.
    template <class F, class A = std::nullptr_t>
    handle schedule_recurrent(F&& f, std::uint64_t period_us, A&& alarm = nullptr) noexcept {
        KAIROS_ASSERT(!in_alarm_);
        KAIROS_ASSERT(period_us < (std::uint64_t{1} << 62));
        if (detail::is_null_callable(f)) return handle{};
        entry* e = free_;
        if (e != nullptr) {
            free_ = e->next_free;
        } else if (unused_ < RecurrentCapacity) {
            e = &entries_[unused_++];  // first use of this entry
        } else {
            ++recurrent_overflows_;
            return handle{};
        }
        e->fn.emplace(std::forward<F>(f));  // in place: a free entry's fn is empty
        if constexpr (!std::is_same_v<std::decay_t<A>, std::nullptr_t>) {
            e->alarm.emplace(std::forward<A>(alarm));
            if (e->alarm) {
                e->alarm_link.owner = e;
                alarms_.push_back(e->alarm_link);
            }
        }
        e->period = period_us;
        e->state = entry::armed;
        e->cancelled = false;
        timers_.arm(*e, now() + period_us);
        ++recurrent_count_;
        return handle{this, static_cast<std::uint16_t>(e - entries_), e->generation};
    }

    // run_recurrent() runs the recurrent functions that are due (in due-time
    // order, ties in registration order), then those whose alarm is true, and
    // returns how many ran. With nothing due and no alarm registered it costs
    // one clock read and one comparison. Functions registered while it runs
    // wait for a later pass. Context: task; a nested call returns 0.
    std::size_t run_recurrent() noexcept {
        if (rec_running_) return 0;
        const std::uint64_t now = this->now();
        if (alarms_.empty() && !timers_.due(now)) return 0;
        rec_running_ = true;

        node_list fire;  // entries of this pass, in order
        while (timer_node* t = timers_.pop_due(now)) {
            static_cast<entry*>(t)->state = entry::firing;
            fire.push_back(*t);
        }
        in_alarm_ = true;
        for (list_node* a = alarms_.front(); a != nullptr; a = alarms_.next_of(a)) {
            entry* e = static_cast<alarm_node*>(a)->owner;
            if (e->state == entry::armed && e->alarm()) {
                timer_queue::disarm(*e);
                e->state = entry::firing;
                fire.push_back(*e);
            }
        }
        in_alarm_ = false;

        std::size_t ran = 0;
        while (list_node* n = fire.pop_front()) {
            entry* e = static_cast<entry*>(static_cast<timer_node*>(n));
            e->state = entry::running;
            const bool keep = e->fn();
            ++ran;
            if (!keep || e->cancelled) {
                release(*e);
            } else {
                e->state = entry::armed;
                timers_.arm(*e, next_due(e->due, e->period, now));
            }
        }
        rec_running_ = false;
        return ran;
    }

    // next_due() is the absolute time (on the scheduler's clock) at which the
    // next recurrent function is due, or no_deadline if none is registered.
    // Context: task.
    std::uint64_t next_due() const noexcept {
        return timers_.empty() ? no_deadline : timers_.next_due();
    }

    // recurrent_delay_us() is how long, in µs, until the next recurrent
    // function is due: 0 if one is due now, no_deadline if none is
    // registered. Alarms are not predicted: whoever makes an alarm true
    // should also wake the loop (schedule() a one-shot or use the wake hook).
    // Context: task.
    std::uint64_t recurrent_delay_us() const noexcept {
        if (timers_.empty()) return no_deadline;
        const std::uint64_t now = this->now();
        const std::uint64_t due = timers_.next_due();
        return time_before(now, due) ? due - now : 0;
    }

    // delay_us() is how long the main loop may sleep: 0 while one-shot
    // functions are pending, else recurrent_delay_us(). Context: task.
    std::uint64_t delay_us() const noexcept {
        return queue_.empty() ? recurrent_delay_us() : 0;
    }

    // recurrent_count() is the number of registered recurrent functions.
    std::size_t recurrent_count() const noexcept { return recurrent_count_; }
    // recurrent_overflows() counts schedule_recurrent() calls that found the
    // pool full.
    std::uint32_t recurrent_overflows() const noexcept { return recurrent_overflows_; }

    // handle names one registration of a recurrent function. A stale handle
    // (its function already removed, its slot reused) is harmless.
    class handle {
    public:
        constexpr handle() noexcept = default;

        // cancel() removes the function; true if it was still registered.
        // From inside the function itself, the current call completes first.
        // Context: task (also inside running functions, not in alarms).
        bool cancel() noexcept { return owner_ != nullptr && owner_->cancel(index_, generation_); }
        // active() is true while the function is registered.
        bool active() const noexcept {
            return owner_ != nullptr && owner_->is_active(index_, generation_);
        }
        explicit operator bool() const noexcept { return owner_ != nullptr; }

    private:
        friend class deferred;
        constexpr handle(deferred* d, std::uint16_t i, std::uint32_t g) noexcept
            : owner_(d), index_(i), generation_(g) {}
        deferred* owner_ = nullptr;
        std::uint16_t index_ = 0;
        std::uint32_t generation_ = 0;
    };

private:
    struct entry;
    struct alarm_node : list_node {
        entry* owner = nullptr;
    };
    struct entry : timer_node {
        enum state_t : std::uint8_t { free, armed, firing, running };
        recurrent_fn fn;
        recurrent_fn alarm;
        std::uint64_t period = 0;
        alarm_node alarm_link;
        entry* next_free = nullptr;
        std::uint32_t generation = 0;
        state_t state = free;
        bool cancelled = false;
    };

    // next_due(due, period, now) is the re-arm time after a run at now: the
    // unchanged due time if the alarm ran it early, otherwise the first point
    // of its phase after now (missed periods skipped, counted without a
    // 64-bit division: whole_periods()); period 0: now.
    static std::uint64_t next_due(std::uint64_t due, std::uint64_t period,
                                  std::uint64_t now) noexcept {
        if (time_before(now, due)) return due;
        if (period == 0) return now;
        std::uint64_t skipped = 0;
        (void)whole_periods(now - due, period, skipped);
        return due + skipped + period;
    }

    // now() reads the scheduler's clock; a null clock_source is the port's.
    std::uint64_t now() const noexcept {
        return clock_.read != nullptr ? clock_() : port::now_us();
    }

    bool is_active(std::uint16_t i, std::uint32_t g) const noexcept {
        const entry& e = entries_[i];
        return e.generation == g && e.state != entry::free && !e.cancelled;
    }

    bool cancel(std::uint16_t i, std::uint32_t g) noexcept {
        KAIROS_ASSERT(!in_alarm_);
        entry& e = entries_[i];
        if (e.generation != g || e.state == entry::free || e.cancelled) return false;
        if (e.state == entry::running) {
            e.cancelled = true;  // released by run_recurrent() when it returns
        } else {
            timer_queue::disarm(e);  // unlinks it from the queue or this pass
            release(e);
        }
        return true;
    }

    void release(entry& e) noexcept {
        if (e.alarm_link.linked()) e.alarm_link.unlink();
        e.fn.reset();
        e.alarm.reset();
        ++e.generation;
        e.state = entry::free;
        e.cancelled = false;
        e.next_free = free_;
        free_ = &e;
        --recurrent_count_;
    }

    // One-shot side: producers touch queue_ and the counters only.
    mpsc_ring<task, Capacity> queue_;
    std::atomic<wake_fn> wake_{nullptr};
    std::atomic<void*> wake_ctx_{nullptr};

    // Consumer side: task context only.
    bool running_ = false;
    bool rec_running_ = false;
    bool in_alarm_ = false;
    clock_source clock_{};  // read == nullptr: port::now_us()
    timer_queue timers_;
    node_list alarms_;
    // Free entries: the released ones in free_, then entries_[unused_..]
    // never used, so the empty state needs no constructor loop.
    entry* free_ = nullptr;
    std::size_t unused_ = 0;
    std::size_t recurrent_count_ = 0;
    std::uint32_t recurrent_overflows_ = 0;
    entry entries_[RecurrentCapacity];
};

}  // namespace kairos

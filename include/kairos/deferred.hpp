// SPDX-License-Identifier: MIT
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
// sorted by due time (ties in registration order): a pass with nothing due
// reads the clock once and compares once, whatever the number of registered
// functions (functions with an alarm are polled every pass, by definition of
// an alarm). Registration and cancellation work from any context: a
// registration claims a pool entry atomically, builds the callables in it
// and pushes it onto a lock-free inbox; a cancellation sets a bit in the
// entry and a note in the inbox; the consumer takes the inbox in at its next
// pass or query (one relaxed load when it is empty) and does the timer-queue
// work itself.
//
// Contexts (see docs/deferred.md):
//   schedule(), overflows(), schedule_recurrent(),
//   handle::cancel(), handle::active(),
//   recurrent_overflows()                              any (ISR, signal, thread)
//   run(), run_recurrent(), next_due(), delay_us(),
//   recurrent_count(), set_wake_hook()                 task: the one consumer
#pragma once

#include <kairos/config.hpp>
#include <kairos/detail/trace_hook.hpp>
#include <kairos/inplace_function.hpp>
#include <kairos/irq_section.hpp>  // rmw_masked<>'s default section
#include <kairos/mpsc_ring.hpp>
#include <kairos/rmw.hpp>
#include <kairos/time.hpp>
#include <kairos/detail/clist.hpp>
#include <kairos/timer_queue.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace kairos {

// no_deadline is what delay_us() and recurrent_delay_us() return when nothing
// is armed: a duration of 2^64 - 1 µs, which no real delay reaches (periods
// are below 2^62). It is not a time: next_due() reports "none" separately,
// since every 64-bit value is a valid point of the wrapping time line.
inline constexpr std::uint64_t no_deadline = ~std::uint64_t{0};

// deferred<Capacity, RecurrentCapacity, FnSize, Rmw> is the scheduler.
//   Capacity           one-shot slots (a power of two >= 2: the ring's mask)
//   RecurrentCapacity  recurrent entries (any number >= 1)
//   FnSize             bytes of the in-slot buffer of each callable
//   Rmw                how producers update shared words (kairos/rmw.hpp):
//                      rmw_cas, or rmw_masked<Section> for single-core
//                      targets without CAS; the default is the target's
//                      (KAIROS_HAS_CAS). It applies to the one-shot ring and
//                      to the recurrent pool, inbox and counter alike.
template <std::size_t Capacity = 32, std::size_t RecurrentCapacity = 32,
          std::size_t FnSize = default_inplace_size, class Rmw = rmw_default>
class deferred {
    static_assert(detail::is_rmw_policy<Rmw>, "deferred: Rmw must be rmw_cas or rmw_masked<S>");
    static_assert(Capacity >= 2 && (Capacity & (Capacity - 1)) == 0,
                  "deferred: Capacity must be a power of two >= 2 (it is the ring size)");
    static_assert(RecurrentCapacity >= 1 && RecurrentCapacity <= 0xFFFF,
                  "deferred: RecurrentCapacity must be between 1 and 65535");

public:
    using task = inplace_function<void(), FnSize>;
    using recurrent_fn = inplace_function<bool(), FnSize>;
    // wake_fn is the wake hook: called in the producer's context after every
    // change the consumer must take in (a successful schedule(), a successful
    // schedule_recurrent(), a cancel() that returned true: each may move the
    // consumer's next deadline), so it must be async-signal-safe on hosts
    // (sem_post, write to an eventfd/pipe) and ISR-safe on MCUs.
    using wake_fn = void (*)(void* ctx) noexcept;

    static constexpr std::size_t capacity = Capacity;
    static constexpr std::size_t recurrent_capacity = RecurrentCapacity;
    using rmw_policy = Rmw;

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
            wake();
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
        while (done < snapshot && queue_.try_consume([](task&& t) {
                   KAIROS_TRACE_EVENT(deferred_start, reinterpret_cast<std::uintptr_t>(&t), 0);
                   t();
                   KAIROS_TRACE_EVENT(deferred_end, reinterpret_cast<std::uintptr_t>(&t), 0);
               })) {
            ++done;
        }
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
    // to run every period_us microseconds, the first time one period after
    // this call; period 0 runs it on every run_recurrent(). f returning false
    // removes it. alarm (optional, returning bool) is polled on every pass;
    // true runs f in that pass even if it is not due, without moving its
    // phase. Missed periods are skipped, not run in a burst. Returns a handle
    // (false when f is null, or when the pool is full: recurrent_overflows()
    // counts that).
    //
    // Context: any, like schedule(): an ISR, a signal handler, another
    // thread, a running function or alarm. Lock-free and allocation-free: it
    // claims a free pool entry (one CAS per entry tried, at most
    // RecurrentCapacity of them; on cores without CAS a critical section of
    // a few instructions per entry tried), reads the clock, constructs f and
    // alarm in the entry and publishes it to the consumer with one CAS (a
    // short critical section without CAS). The consumer arms it at its next
    // run_recurrent() or query, so a function registered during a pass runs
    // in a later pass. The clock (port::now_us() or the clock_source) must
    // be readable from the caller's context. Precondition: period_us < 2^62.
    template <class F, class A = std::nullptr_t>
    handle schedule_recurrent(F&& f, std::uint64_t period_us, A&& alarm = nullptr) noexcept {
        KAIROS_ASSERT(period_us < (std::uint64_t{1} << 62));
        if constexpr (std::is_same_v<std::decay_t<F>, std::nullptr_t>) {
            return handle{};
        } else {
            if (detail::is_null_callable(f)) return handle{};
            std::uint32_t gen = 0;
            const std::uint32_t i = claim_entry(gen);
            if (i == RecurrentCapacity) {
                count_overflow();
                return handle{};
            }
            entry& e = entries_[i];  // ours until publish(): nobody else touches it
            e.fn.emplace(std::forward<F>(f));  // in place: a free entry's fn is empty
            if constexpr (!std::is_same_v<std::decay_t<A>, std::nullptr_t>) {
                e.alarm.emplace(std::forward<A>(alarm));
            }
            e.period = period_us;
            e.due = now() + period_us;  // the first due time, armed by the consumer
            publish(i);
            wake();  // a sleeping consumer recomputes its delay
            return handle{this, static_cast<std::uint16_t>(i), gen};
        }
    }

    // run_recurrent() runs the recurrent functions that are due (in due-time
    // order, ties in registration order), then those whose alarm is true, and
    // returns how many ran. With nothing due, no alarm registered and nothing
    // registered or cancelled since the last pass it costs one relaxed load,
    // one clock read and one comparison. Functions registered while it runs
    // wait for a later pass. Context: task, the single consumer; a nested
    // call returns 0.
    std::size_t run_recurrent() noexcept {
        if (rec_running_) return 0;
        collect();
        const std::uint64_t now = this->now();
        if (alarms_.empty() && !timers_.due(now)) return 0;
        rec_running_ = true;

        while (timer_node* t = timers_.pop_due(now)) {
            entry* e = static_cast<entry*>(t);
            e->state = entry::firing;
            fire_.push_back(&e->fire_link);
        }
        in_alarm_ = true;
        for (detail::clist_node* a = alarms_.front(); a != nullptr; a = alarms_.next_of(a)) {
            entry* e = static_cast<alarm_node*>(a)->owner;
            if (e->state == entry::armed && !cancel_requested(*e) && e->alarm()) {
                timers_.disarm(*e);
                e->state = entry::firing;
                fire_.push_back(&e->fire_link);
            }
        }
        in_alarm_ = false;

        std::size_t ran = 0;
        while (detail::clist_node* n = fire_.pop_front()) {  // in order
            entry* e = static_cast<alarm_node*>(n)->owner;
            if (cancel_requested(*e)) {  // cancelled by an earlier function or an ISR
                release(*e);
                continue;
            }
            e->state = entry::running;
            KAIROS_TRACE_EVENT(deferred_start, reinterpret_cast<std::uintptr_t>(e), 1);
            const bool keep = e->fn();
            KAIROS_TRACE_EVENT(deferred_end, reinterpret_cast<std::uintptr_t>(e), 1);
            ++ran;
            if (!keep || cancel_requested(*e)) {
                release(*e);
            } else {
                e->state = entry::armed;
                arm(*e, rearm_time(e->due, e->period, now));
            }
        }
        rec_running_ = false;
        return ran;
    }

    // next_due(at) stores in at the absolute time (on the scheduler's clock)
    // at which the next recurrent function is due and returns true; returns
    // false, leaving at alone, if none is registered. (Every 64-bit value is
    // a valid due time on the wrapping time line, so "none" is the return
    // value, not a reserved time.) Context: task.
    [[nodiscard]] bool next_due(std::uint64_t& at) noexcept {
        collect();
        if (timers_.empty()) return false;
        at = timers_.next_due();
        return true;
    }

    // recurrent_delay_us() is how long, in µs, until the next recurrent
    // function is due: 0 if one is due now, no_deadline if none is
    // registered (as a duration it cannot collide: a real delay is below
    // 2^62). Alarms are not predicted: whoever makes an alarm true should
    // also wake the loop (schedule() a one-shot or use the wake hook).
    // Context: task.
    std::uint64_t recurrent_delay_us() noexcept {
        std::uint64_t due = 0;
        if (!next_due(due)) return no_deadline;
        const std::uint64_t now = this->now();
        return time_before(now, due) ? due - now : 0;
    }

    // delay_us() is how long the main loop may sleep: 0 while one-shot
    // functions are pending, else recurrent_delay_us(). Context: task.
    std::uint64_t delay_us() noexcept { return queue_.empty() ? recurrent_delay_us() : 0; }

    // recurrent_count() is the number of registered recurrent functions,
    // including those registered or cancelled from other contexts and not
    // yet taken in by a pass (it takes them in). Context: task.
    std::size_t recurrent_count() noexcept {
        collect();
        return recurrent_count_;
    }

    // recurrent_grain_us() is the greatest common divisor of the periods of
    // the registered recurrent functions (period 0 counts as no constraint),
    // 0 if there are none or all periods are 0: a sleeping loop that wakes
    // every grain meets every period (ESP8266 delay()). O(RecurrentCapacity).
    // Context: task.
    std::uint64_t recurrent_grain_us() noexcept {
        collect();
        std::uint64_t g = 0;
        for (const entry& e : entries_) {
            if (e.state != entry::idle) g = gcd(g, e.period);
        }
        return g;
    }

    // recurrent_overflows() counts schedule_recurrent() calls that found the
    // pool full. Context: any.
    std::uint32_t recurrent_overflows() const noexcept {
        return recurrent_overflows_.load(std::memory_order_relaxed);  // a statistic
    }

    // handle names one registration of a recurrent function. A stale handle
    // (its function already removed, its entry reused) is harmless; a
    // handle's generation has 30 bits, so only a handle kept across 2^30
    // reuses of its entry could name the new registration.
    class handle {
    public:
        constexpr handle() noexcept = default;

        // cancel() removes the function; true if it was still registered
        // (and not already cancelled), false otherwise. Context: any, like
        // schedule_recurrent(): lock-free (one CAS, or a short critical
        // section without CAS). After cancel() returns true the function is
        // not called again; a call already under way (cancel() from inside
        // the function, or from an interrupt that arrived as the consumer
        // was starting the call) completes. The consumer frees the entry at
        // its next pass or query.
        bool cancel() noexcept { return owner_ != nullptr && owner_->cancel(index_, generation_); }
        // active() is true while the function is registered and not
        // cancelled. Context: any.
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
    // alarm_node links an entry into the alarm list or a pass's fire list.
    struct alarm_node : detail::clist_node {
        entry* owner = nullptr;
    };

    // An entry's word: bit 0 in use (claimed by a registration until the
    // consumer releases it), bit 1 cancel requested, bits 2-31 the
    // generation, advanced at every release. All zero: free, generation 0.
    static constexpr std::uint32_t in_use_bit = 1;
    static constexpr std::uint32_t cancel_bit = 2;
    static constexpr unsigned gen_shift = 2;

    // The inbox: bits 0-15 one plus the index of the last published entry
    // (0: none; each entry links to the one published before it), bit 16
    // set when a cancel() is waiting to be applied. Zero: nothing pending.
    static constexpr std::uint32_t head_mask = 0xFFFF;
    static constexpr std::uint32_t cancel_note = 0x10000;

    struct entry : timer_node {
        enum state_t : std::uint8_t { idle, armed, firing, running };
        // Written by the registering context while it owns the entry (claimed,
        // not yet published), then by the consumer. timer_node::due holds the
        // first due time until the consumer arms the entry.
        recurrent_fn fn;
        recurrent_fn alarm;
        std::uint64_t period = 0;
        std::uint32_t next_pending = 0;  // inbox chain: 1 + index, 0 ends it
        // Consumer only. idle: not the consumer's (free, or published and not
        // yet collected).
        alarm_node alarm_link;
        alarm_node fire_link;  // in fire_ while firing in a pass
        std::uint64_t order = 0;  // registration sequence: the tie-break
        state_t state = idle;
        // Shared by every context: see in_use_bit.
        std::atomic<std::uint32_t> word{0};
    };

    // rearm_time(due, period, now) is the re-arm time after a run at now:
    // the unchanged due time if the alarm ran it early, otherwise the first
    // point of its phase after now (missed periods skipped, counted without
    // a 64-bit division: whole_periods()); period 0: now.
    static std::uint64_t rearm_time(std::uint64_t due, std::uint64_t period,
                                    std::uint64_t now) noexcept {
        if (time_before(now, due)) return due;
        if (period == 0) return now;
        std::uint64_t skipped = 0;
        (void)whole_periods(now - due, period, skipped);
        return due + skipped + period;
    }

    // gcd(a, b) by the binary method: shifts and subtractions only (no
    // 64-bit division, a library call on 32-bit cores). gcd(0, b) = b.
    static constexpr std::uint64_t gcd(std::uint64_t a, std::uint64_t b) noexcept {
        if (a == 0) return b;
        if (b == 0) return a;
        unsigned shift = 0;
        while (((a | b) & 1u) == 0) {
            a >>= 1;
            b >>= 1;
            ++shift;
        }
        while ((a & 1u) == 0) a >>= 1;
        do {
            while ((b & 1u) == 0) b >>= 1;
            if (a > b) std::swap(a, b);
            b -= a;
        } while (b != 0);
        return a << shift;
    }

    // now() reads the scheduler's clock; a null clock_source is the port's.
    std::uint64_t now() const noexcept {
        return clock_.read != nullptr ? clock_() : port::now_us();
    }

    // arm(e, due) arms e in the timer queue, ties in registration order.
    void arm(entry& e, std::uint64_t due) noexcept {
        (void)timers_.arm(e, due);  // one timer per entry: never full
    }

    // ---- any context: claim, publish, cancel -------------------------------

    // claim_entry(gen) marks a free entry in use and returns its index and
    // generation; RecurrentCapacity if every entry is in use.
    std::uint32_t claim_entry(std::uint32_t& gen) noexcept {
        for (std::uint32_t i = 0; i < RecurrentCapacity; ++i) {
            std::atomic<std::uint32_t>& w = entries_[i].word;
            // relaxed: only a filter; the claim below is the acquire.
            std::uint32_t cur = w.load(std::memory_order_relaxed);
            if ((cur & in_use_bit) != 0) continue;
            if constexpr (Rmw::uses_cas) {
                // acquire: the consumer's release of this entry (callables
                // destroyed, release store) happens before we construct into it.
                // Failure: another context claimed it first; try the next.
                if (w.compare_exchange_strong(cur, cur | in_use_bit, std::memory_order_acquire,
                                              std::memory_order_relaxed)) {
                    gen = cur >> gen_shift;
                    return i;
                }
            } else {
                // No CAS: test and set inside the section (interrupts masked: no
                // other producer can run in between on a single core).
                const auto saved = Rmw::section::enter();
                cur = w.load(std::memory_order_acquire);  // acquire: as above
                const bool mine = (cur & in_use_bit) == 0;
                if (mine) w.store(cur | in_use_bit, std::memory_order_relaxed);  // masked
                Rmw::section::leave(saved);
                if (mine) {
                    gen = cur >> gen_shift;
                    return i;
                }
            }
        }
        return RecurrentCapacity;
    }

    // publish(i) pushes claimed entry i onto the inbox for the consumer.
    // Never full: an entry is in the inbox at most once.
    void publish(std::uint32_t i) noexcept {
        entry& e = entries_[i];
        const std::uint32_t self = i + 1;
        if constexpr (Rmw::uses_cas) {
            // relaxed: a guess; the CAS checks it.
            std::uint32_t w = inbox_.load(std::memory_order_relaxed);
            do {
                e.next_pending = w & head_mask;
                // release: the entry's contents are written before the consumer's
                // acquire exchange takes the inbox (later pushes and notes are
                // read-modify-writes, so they continue this release sequence).
            } while (!inbox_.compare_exchange_weak(
                w, (w & ~head_mask) | self, std::memory_order_release, std::memory_order_relaxed));
        } else {
            const auto saved = Rmw::section::enter();
            const std::uint32_t w = inbox_.load(std::memory_order_relaxed);  // masked
            e.next_pending = w & head_mask;
            // release: as above (single core: masking orders the rest).
            inbox_.store((w & ~head_mask) | self, std::memory_order_release);
            Rmw::section::leave(saved);
        }
    }

    // cancel(i, g) requests the cancellation of generation g of entry i.
    bool cancel(std::uint16_t i, std::uint32_t g) noexcept {
        std::atomic<std::uint32_t>& w = entries_[i].word;
        const std::uint32_t live = (g << gen_shift) | in_use_bit;
        if constexpr (Rmw::uses_cas) {
            std::uint32_t cur = live;
            // relaxed: the bit carries no data; the note below publishes it.
            if (!w.compare_exchange_strong(cur, live | cancel_bit, std::memory_order_relaxed,
                                           std::memory_order_relaxed)) {
                return false;  // another generation, free, or already cancelled
            }
            // release: the consumer that takes this note (acquire) sees the bit.
            inbox_.fetch_or(cancel_note, std::memory_order_release);
            wake();  // the consumer frees the entry and recomputes its delay
            return true;
        } else {
            const auto saved = Rmw::section::enter();
            const bool ok = w.load(std::memory_order_relaxed) == live;  // masked
            if (ok) {
                w.store(live | cancel_bit, std::memory_order_relaxed);  // masked
                // release: as above (single core: masking orders the rest).
                inbox_.store(inbox_.load(std::memory_order_relaxed) | cancel_note,
                             std::memory_order_release);
            }
            Rmw::section::leave(saved);
            if (ok) wake();  // as above
            return ok;
        }
    }

    // wake() calls the wake hook, if one is installed. Context: any.
    void wake() noexcept {
        // acquire: pairs with set_wake_hook's release, so ctx is visible.
        if (wake_fn w = wake_.load(std::memory_order_acquire)) {
            // relaxed: ordered by the acquire on wake_ above.
            w(wake_ctx_.load(std::memory_order_relaxed));
        }
    }

    bool is_active(std::uint16_t i, std::uint32_t g) const noexcept {
        // relaxed: a snapshot of one word; no data is read through it.
        return entries_[i].word.load(std::memory_order_relaxed) ==
               ((g << gen_shift) | in_use_bit);
    }

    void count_overflow() noexcept {
        if constexpr (Rmw::uses_cas) {
            recurrent_overflows_.fetch_add(1u, std::memory_order_relaxed);  // a statistic
        } else {
            const auto saved = Rmw::section::enter();
            recurrent_overflows_.store(recurrent_overflows_.load(std::memory_order_relaxed) + 1u,
                                       std::memory_order_relaxed);  // masked; a statistic
            Rmw::section::leave(saved);
        }
    }

    // ---- consumer: collect, cancel, release --------------------------------

    static bool cancel_requested(const entry& e) noexcept {
        // relaxed: set by cancel(); seen in time through the inbox note
        // (acquire in take_inbox()), or at the latest at the next pass.
        return (e.word.load(std::memory_order_relaxed) & cancel_bit) != 0;
    }

    // take_inbox() empties the inbox and returns what it held.
    std::uint32_t take_inbox() noexcept {
        if constexpr (Rmw::uses_cas) {
            // acquire: pairs with publish() and cancel() (release): the entries'
            // contents and cancel bits are visible.
            return inbox_.exchange(0, std::memory_order_acquire);
        } else {
            const auto saved = Rmw::section::enter();
            const std::uint32_t w = inbox_.load(std::memory_order_acquire);  // acquire: as above
            inbox_.store(0, std::memory_order_relaxed);  // masked
            Rmw::section::leave(saved);
            return w;
        }
    }

    // collect() takes in what other contexts left in the inbox: it arms the
    // new registrations in registration order and applies the requested
    // cancellations. Nothing pending: one relaxed load. Skipped inside alarm
    // predicates (the alarm list is being walked); the pass after catches up.
    void collect() noexcept {
        // relaxed: only a filter; take_inbox() is the acquire.
        if (in_alarm_ || inbox_.load(std::memory_order_relaxed) == 0) return;
        const std::uint32_t taken = take_inbox();
        // The chain runs newest first: reverse it into registration order.
        std::uint32_t n = taken & head_mask, ordered = 0;
        while (n != 0) {
            entry& e = entries_[n - 1];
            const std::uint32_t older = e.next_pending;
            e.next_pending = ordered;
            ordered = n;
            n = older;
        }
        for (n = ordered; n != 0;) {
            entry& e = entries_[n - 1];
            n = e.next_pending;
            e.order = next_order_++;
            e.fire_link.owner = &e;
            e.state = entry::armed;
            ++recurrent_count_;
            if (cancel_requested(e)) {  // cancelled before it was armed
                release(e);
                continue;
            }
            if (e.alarm) {
                e.alarm_link.owner = &e;
                alarms_.push_back(&e.alarm_link);
            }
            arm(e, e.due);
        }
        if ((taken & cancel_note) != 0) apply_cancels();
    }

    // apply_cancels() releases every cancelled entry the consumer holds,
    // except a running one: run_recurrent() releases it when its call
    // returns. O(RecurrentCapacity).
    void apply_cancels() noexcept {
        for (entry& e : entries_) {
            if (e.state == entry::idle || e.state == entry::running) continue;
            if (!cancel_requested(e)) continue;
            timers_.disarm(e);  // out of the queue, or of this pass:
            if (e.fire_link.linked()) fire_.remove(&e.fire_link);
            release(e);
        }
    }

    // release(e) frees a consumer-held entry for the next registration.
    void release(entry& e) noexcept {
        if (e.alarm_link.linked()) alarms_.remove(&e.alarm_link);
        e.fn.reset();
        e.alarm.reset();
        e.state = entry::idle;
        --recurrent_count_;
        // relaxed: the consumer reads its own entry; only the cancel bit may
        // change concurrently, and it is dropped here.
        const std::uint32_t gen = e.word.load(std::memory_order_relaxed) >> gen_shift;
        // release: the callables are destroyed before a producer claims the
        // entry (acquire) and constructs into it.
        e.word.store((gen + 1u) << gen_shift, std::memory_order_release);
    }

    // One-shot side: producers touch queue_ and the counters only.
    mpsc_ring<task, Capacity, std::uint32_t, Rmw> queue_;
    std::atomic<wake_fn> wake_{nullptr};
    std::atomic<void*> wake_ctx_{nullptr};

    // Recurrent side, shared with producers: the inbox and the statistic.
    std::atomic<std::uint32_t> inbox_{0};
    std::atomic<std::uint32_t> recurrent_overflows_{0};

    // Consumer side: task context only.
    bool running_ = false;
    bool rec_running_ = false;
    bool in_alarm_ = false;
    clock_source clock_{};  // read == nullptr: port::now_us()
    // registration_order: ties of the timer queue in registration order,
    // whatever order the re-arms came in.
    struct registration_order {
        static bool first(const timer_node& a, const timer_node& b) noexcept {
            return static_cast<const entry&>(a).order < static_cast<const entry&>(b).order;
        }
    };
    timer_queue<RecurrentCapacity, registration_order> timers_;
    detail::clist fire_;  // the entries of the running pass (run_recurrent())
    detail::clist alarms_;
    std::uint64_t next_order_ = 0;
    std::size_t recurrent_count_ = 0;
    entry entries_[RecurrentCapacity];
};

}  // namespace kairos

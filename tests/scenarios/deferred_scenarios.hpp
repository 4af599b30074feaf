// SPDX-License-Identifier: MIT
// Portable deferred-scheduler scenarios: one-shot FIFO and the run boundary,
// reentrancy, overflow accounting, the wake hook, recurrent functions (period
// 0, long periods, alarms, cancel, removal by returning false, skipped
// periods) on a fake clock, including clocks that wrap, the timer queue and
// polled timeouts. No threads, signals or heap: the target issue runs these
// on microcontrollers as they are.
#pragma once

#include <kairos/deferred.hpp>
#include <kairos/polled_timeout.hpp>
#include <kairos/time.hpp>
#include <kairos/timer_queue.hpp>

#include <cstdint>

#include "ktest.hpp"

namespace scenarios {

// fake_clock is a settable 64-bit microsecond clock.
struct fake_clock {
    std::uint64_t now = 0;
    static std::uint64_t read(void* c) noexcept { return static_cast<fake_clock*>(c)->now; }
    kairos::clock_source source() noexcept { return {&read, this}; }
};

// fake_clock32 is a 32-bit microsecond counter (wraps every 71.6 min),
// widened by kairos::extend32 as a port would widen a hardware timer.
struct fake_clock32 {
    std::uint32_t raw = 0;
    kairos::extend32 wide;
    static std::uint64_t read(void* c) noexcept {
        auto* self = static_cast<fake_clock32*>(c);
        return self->wide(self->raw);
    }
    kairos::clock_source source() noexcept { return {&read, this}; }
};

// trace records up to 64 small integers in order.
struct trace {
    int v[64];
    int n = 0;
    void add(int x) {
        if (n < 64) v[n++] = x;
    }
};

// ---- one-shot --------------------------------------------------------------

inline void deferred_fifo_and_run_boundary() {
    kairos::deferred<8> d;
    trace t;
    for (int i = 0; i < 5; ++i) KT_REQUIRE(d.schedule([&t, i] { t.add(i); }));
    KT_CHECK_EQ(d.pending(), 5u);
    KT_CHECK_EQ(d.run(), 5u);
    KT_REQUIRE(t.n == 5);
    for (int i = 0; i < 5; ++i) KT_CHECK_EQ(t.v[i], i);
    KT_CHECK_EQ(d.run(), 0u);

    // A function scheduling more work: the new work waits for the next run.
    t.n = 0;
    KT_REQUIRE(d.schedule([&] {
        t.add(1);
        KT_CHECK(d.schedule([&t] { t.add(3); }));
    }));
    KT_REQUIRE(d.schedule([&t] { t.add(2); }));
    KT_CHECK_EQ(d.run(), 2u);
    KT_CHECK_EQ(t.n, 2);
    KT_CHECK_EQ(d.run(), 1u);
    KT_REQUIRE(t.n == 3);
    KT_CHECK_EQ(t.v[0], 1);
    KT_CHECK_EQ(t.v[1], 2);
    KT_CHECK_EQ(t.v[2], 3);
}

// A function that reschedules itself runs once per run(), never starving
// the loop; a nested run() is a no-op.
inline void deferred_self_rescheduling() {
    kairos::deferred<4> d;
    struct self_t {
        kairos::deferred<4>* d;
        int runs = 0;
        std::size_t nested = 99;
        void go() {
            ++runs;
            nested = d->run();
            KT_CHECK(d->schedule([this] { go(); }));
        }
    } s{&d};
    KT_REQUIRE(d.schedule([&s] { s.go(); }));
    for (int i = 1; i <= 10; ++i) {
        KT_CHECK_EQ(d.run(), 1u);
        KT_CHECK_EQ(s.runs, i);
        KT_CHECK_EQ(s.nested, 0u);
    }
}

inline void deferred_overflow_is_counted() {
    kairos::deferred<4> d;
    int ran = 0;
    for (int i = 0; i < 4; ++i) KT_CHECK(d.schedule([&ran] { ++ran; }));
    KT_CHECK(!d.schedule([&ran] { ++ran; }));
    KT_CHECK(!d.schedule([&ran] { ++ran; }));
    KT_CHECK_EQ(d.overflows(), 2u);
    KT_CHECK_EQ(d.run(), 4u);
    KT_CHECK_EQ(ran, 4);
    KT_CHECK(d.schedule([&ran] { ++ran; }));
    KT_CHECK_EQ(d.overflows(), 2u);
    // Null callables are refused, not counted as overflow.
    void (*null_fn)() = nullptr;
    KT_CHECK(!d.schedule(null_fn));
    KT_CHECK(!d.schedule(nullptr));
    KT_CHECK_EQ(d.overflows(), 2u);
    KT_CHECK_EQ(d.run(), 1u);
}

// Callables with non-trivial state are destroyed exactly once: after they ran,
// or with the scheduler if they never ran.
inline void deferred_destroys_callables() {
    struct counted {
        int* live;
        explicit counted(int* l) : live(l) { ++*live; }
        counted(counted&& o) noexcept : live(o.live) { ++*live; }
        counted(const counted& o) : live(o.live) { ++*live; }
        ~counted() { --*live; }
        void operator()() const {}
    };
    int live = 0;
    {
        kairos::deferred<4> d;
        KT_CHECK(d.schedule(counted{&live}));
        KT_CHECK(d.schedule(counted{&live}));
        KT_CHECK_EQ(live, 2);
        KT_CHECK_EQ(d.run(), 2u);
        KT_CHECK_EQ(live, 0);
        KT_CHECK(d.schedule(counted{&live}));
        KT_CHECK_EQ(live, 1);
    }
    KT_CHECK_EQ(live, 0);
}

inline void deferred_wake_hook() {
    kairos::deferred<2> d;
    int wakes = 0;
    d.set_wake_hook([](void* c) noexcept { ++*static_cast<int*>(c); }, &wakes);
    KT_CHECK(d.schedule([] {}));
    KT_CHECK(d.schedule([] {}));
    KT_CHECK(!d.schedule([] {}));  // full: no wake
    KT_CHECK_EQ(wakes, 2);
    d.set_wake_hook(nullptr, nullptr);
    d.run();
    KT_CHECK(d.schedule([] {}));
    KT_CHECK_EQ(wakes, 2);
}

// A registration and a successful cancel() call the wake hook too: either
// moves the consumer's next deadline (a consumer sleeping until the old one
// would run a new shorter period late). A refused one does not.
inline void deferred_wake_hook_recurrent() {
    kairos::deferred<2, 1> d;
    int wakes = 0;
    d.set_wake_hook([](void* c) noexcept { ++*static_cast<int*>(c); }, &wakes);
    auto h = d.schedule_recurrent([] { return true; }, 1000);
    KT_CHECK(h);
    KT_CHECK_EQ(wakes, 1);
    KT_CHECK(!d.schedule_recurrent([] { return true; }, 1000));  // pool full: no wake
    KT_CHECK_EQ(wakes, 1);
    KT_CHECK(h.cancel());
    KT_CHECK_EQ(wakes, 2);
    KT_CHECK(!h.cancel());  // already cancelled: no wake
    KT_CHECK_EQ(wakes, 2);
    d.set_wake_hook(nullptr, nullptr);
}

// ---- recurrent -------------------------------------------------------------

inline void recurrent_period_and_skip() {
    fake_clock c;
    c.now = 1000;
    kairos::deferred<4, 4> d(c.source());
    int runs = 0;
    auto h = d.schedule_recurrent([&runs] { ++runs; return true; }, 100);
    KT_REQUIRE(h);
    KT_CHECK(h.active());
    KT_CHECK_EQ(d.recurrent_delay_us(), 100u);
    std::uint64_t due = 0;
    KT_CHECK(d.next_due(due));
    KT_CHECK_EQ(due, 1100u);
    KT_CHECK_EQ(d.run_recurrent(), 0u);
    c.now = 1099;
    KT_CHECK_EQ(d.run_recurrent(), 0u);
    KT_CHECK_EQ(d.recurrent_delay_us(), 1u);
    c.now = 1100;
    KT_CHECK_EQ(d.run_recurrent(), 1u);
    KT_CHECK_EQ(d.recurrent_delay_us(), 100u);
    // A stall of 3.5 periods: one run, not a burst, and the phase is kept.
    c.now = 1550;
    KT_CHECK_EQ(d.run_recurrent(), 1u);
    KT_CHECK_EQ(d.run_recurrent(), 0u);
    KT_CHECK_EQ(d.recurrent_delay_us(), 50u);  // next at 1600
    c.now = 1600;
    KT_CHECK_EQ(d.run_recurrent(), 1u);
    KT_CHECK_EQ(runs, 3);
    KT_CHECK(h.cancel());
    KT_CHECK(!h.cancel());
    KT_CHECK(!h.active());
    KT_CHECK_EQ(d.recurrent_delay_us(), kairos::no_deadline);
    KT_CHECK(!d.next_due(due));
    c.now = 5000;
    KT_CHECK_EQ(d.run_recurrent(), 0u);
}

inline void recurrent_period_zero_runs_every_pass() {
    fake_clock c;
    kairos::deferred<4, 4> d(c.source());
    int runs = 0;
    KT_REQUIRE(d.schedule_recurrent([&runs] { ++runs; return runs < 3; }, 0));
    KT_CHECK_EQ(d.recurrent_delay_us(), 0u);
    KT_CHECK_EQ(d.run_recurrent(), 1u);  // once per pass, even at the same instant
    KT_CHECK_EQ(d.run_recurrent(), 1u);
    KT_CHECK_EQ(d.recurrent_count(), 1u);
    KT_CHECK_EQ(d.run_recurrent(), 1u);  // returns false: removed
    KT_CHECK_EQ(d.recurrent_count(), 0u);
    KT_CHECK_EQ(d.run_recurrent(), 0u);
    KT_CHECK_EQ(runs, 3);
}

// Periods far beyond the ESP8266's 26.8 s limit fire (hours), and order
// among functions follows due time.
inline void recurrent_long_periods_and_order() {
    fake_clock c;
    kairos::deferred<4, 8> d(c.source());
    trace t;
    constexpr std::uint64_t hour = 3600ull * 1000000ull;
    KT_REQUIRE(d.schedule_recurrent([&t] { t.add(3); return true; }, 3 * hour));
    KT_REQUIRE(d.schedule_recurrent([&t] { t.add(1); return true; }, hour));
    KT_REQUIRE(d.schedule_recurrent([&t] { t.add(2); return true; }, 2 * hour));
    KT_REQUIRE(d.schedule_recurrent([&t] { t.add(9); return true; }, 30'000'000));  // 30 s
    KT_CHECK_EQ(d.recurrent_delay_us(), 30'000'000u);
    c.now = 30'000'000;
    KT_CHECK_EQ(d.run_recurrent(), 1u);
    // At 3 h every function is overdue. They run in due order: the 30 s one
    // has been due since 60 s, the others since 1 h, 2 h and 3 h.
    c.now = 3 * hour;
    t.n = 0;
    KT_CHECK_EQ(d.run_recurrent(), 4u);
    KT_REQUIRE(t.n == 4);
    KT_CHECK_EQ(t.v[0], 9);
    KT_CHECK_EQ(t.v[1], 1);
    KT_CHECK_EQ(t.v[2], 2);
    KT_CHECK_EQ(t.v[3], 3);
    // Missed periods were skipped, not queued: the 30 s function is next due
    // one period from now (3 h + 30 s), not at 90 s, and runs once then.
    KT_CHECK_EQ(d.recurrent_delay_us(), 30'000'000u);
    c.now = 3 * hour + 30'000'000;
    t.n = 0;
    KT_CHECK_EQ(d.run_recurrent(), 1u);
    KT_CHECK(t.n == 1 && t.v[0] == 9);
}

inline void recurrent_alarm_runs_now_without_rephasing() {
    fake_clock c;
    kairos::deferred<4, 4> d(c.source());
    bool alarm = false;
    int runs = 0;
    KT_REQUIRE(d.schedule_recurrent([&runs] { ++runs; return true; }, 1000,
                                    [&alarm] { return alarm; }));
    c.now = 10;
    KT_CHECK_EQ(d.run_recurrent(), 0u);
    alarm = true;
    KT_CHECK_EQ(d.run_recurrent(), 1u);
    alarm = false;
    KT_CHECK_EQ(d.recurrent_delay_us(), 990u);  // still due at 1000
    c.now = 1000;
    KT_CHECK_EQ(d.run_recurrent(), 1u);
    KT_CHECK_EQ(runs, 2);
}

// cancel() from inside running functions: of itself, of a later one due in
// the same pass, of an earlier one; and a registration from inside a pass.
inline void recurrent_reentrant_cancel_and_register() {
    using sched = kairos::deferred<4, 8>;
    struct state {
        fake_clock c;
        sched d{c.source()};
        sched::handle ha, hb, hc;
        int a = 0, b = 0, cc = 0, late = 0;
        bool b_body() {
            ++b;
            KT_CHECK(hb.cancel());  // itself: this call completes, then it is gone
            KT_CHECK(!hb.active());
            KT_CHECK(hc.cancel());  // due in this same pass, after us: must not run
            KT_CHECK(ha.cancel());  // already ran in this pass
            KT_CHECK(d.schedule_recurrent([this] { ++late; return false; }, 0));
            return true;
        }
    };
    static state s;  // large; static keeps MCU stacks small
    s.ha = s.d.schedule_recurrent([] { ++s.a; return true; }, 10);
    s.hb = s.d.schedule_recurrent([] { return s.b_body(); }, 10);
    s.hc = s.d.schedule_recurrent([] { ++s.cc; return true; }, 10);
    KT_REQUIRE(s.ha && s.hb && s.hc);
    s.c.now = 10;
    KT_CHECK_EQ(s.d.run_recurrent(), 2u);
    KT_CHECK_EQ(s.a, 1);
    KT_CHECK_EQ(s.b, 1);
    KT_CHECK_EQ(s.cc, 0);
    KT_CHECK_EQ(s.late, 0);  // registered during the pass: waits for the next
    KT_CHECK_EQ(s.d.recurrent_count(), 1u);
    KT_CHECK_EQ(s.d.run_recurrent(), 1u);
    KT_CHECK_EQ(s.late, 1);
    KT_CHECK_EQ(s.d.recurrent_count(), 0u);
    s.c.now = 100;
    KT_CHECK_EQ(s.d.run_recurrent(), 0u);
}

inline void recurrent_pool_full_and_stale_handles() {
    fake_clock c;
    kairos::deferred<4, 2> d(c.source());
    auto h1 = d.schedule_recurrent([] { return true; }, 5);
    auto h2 = d.schedule_recurrent([] { return true; }, 5);
    auto h3 = d.schedule_recurrent([] { return true; }, 5);
    KT_CHECK(h1 && h2);
    KT_CHECK(!h3);
    KT_CHECK(!h3.cancel());
    KT_CHECK_EQ(d.recurrent_overflows(), 1u);
    KT_CHECK(h1.cancel());
    // The consumer frees a cancelled entry at its next pass or query.
    KT_CHECK_EQ(d.recurrent_count(), 1u);
    auto h4 = d.schedule_recurrent([] { return true; }, 5);  // reuses h1's entry
    KT_CHECK(h4.active());
    KT_CHECK(!h1.active());
    KT_CHECK(!h1.cancel());  // stale: must not cancel h4
    KT_CHECK(h4.active());
}

// The scheduler runs across wraparound of a 32-bit time source (widened with
// extend32) and across wraparound of the 64-bit time line itself.
inline void recurrent_across_clock_wraparound() {
    {
        fake_clock32 c;
        c.raw = 0xFFFFFF00u;  // 256 µs before the 32-bit counter wraps
        kairos::deferred<4, 4> d(c.source());
        int runs = 0;
        KT_REQUIRE(d.schedule_recurrent([&runs] { ++runs; return true; }, 1000));
        for (std::uint32_t step = 0; step < 100; ++step) {
            c.raw += 100;  // 10 ms in 100 µs steps, through the wrap
            d.run_recurrent();
        }
        KT_CHECK_EQ(runs, 10);
        KT_CHECK(d.recurrent_delay_us() <= 1000u);
        // A 2-hour period spans two 32-bit wraps.
        int slow = 0;
        KT_REQUIRE(d.schedule_recurrent([&slow] { ++slow; return true; }, 7200ull * 1000000u));
        for (int minute = 0; minute < 121; ++minute) {
            for (int k = 0; k < 60; ++k) {
                c.raw += 1000000u;
                d.run_recurrent();
            }
        }
        KT_CHECK_EQ(slow, 1);
    }
    {
        fake_clock c;
        c.now = ~std::uint64_t{0} - 250;  // the 64-bit line wraps too
        kairos::deferred<4, 4> d(c.source());
        int runs = 0;
        KT_REQUIRE(d.schedule_recurrent([&runs] { ++runs; return true; }, 100));
        for (int i = 0; i < 10; ++i) {
            c.now += 50;
            d.run_recurrent();
        }
        KT_CHECK_EQ(runs, 5);
    }
}

// One-shot functions may register and cancel recurrent ones.
inline void one_shot_manages_recurrent() {
    fake_clock c;
    kairos::deferred<4, 4> d(c.source());
    int runs = 0;
    auto h = d.schedule_recurrent([&runs] { ++runs; return true; }, 0);
    KT_REQUIRE(h);
    KT_CHECK(d.schedule([&h] { KT_CHECK(h.cancel()); }));
    KT_CHECK(d.schedule([&d, &runs] {
        KT_CHECK(d.schedule_recurrent([&runs] { runs += 100; return false; }, 0));
    }));
    KT_CHECK_EQ(d.run(), 2u);
    KT_CHECK_EQ(d.run_recurrent(), 1u);
    KT_CHECK_EQ(runs, 100);
    KT_CHECK_EQ(d.recurrent_count(), 0u);
}

// Functions due at the same instant run in registration order, whatever
// order their re-arms left them in: A (period 5) registered before B and C
// (period 10); at 10 all three are due, and A was re-armed at 5, after them.
inline void recurrent_ties_in_registration_order() {
    fake_clock c;
    kairos::deferred<4, 4> d(c.source());
    trace t;
    KT_REQUIRE(d.schedule_recurrent([&t] { t.add(1); return true; }, 5));
    KT_REQUIRE(d.schedule_recurrent([&t] { t.add(2); return true; }, 10));
    KT_REQUIRE(d.schedule_recurrent([&t] { t.add(3); return true; }, 10));
    for (std::uint64_t now : {5u, 10u, 15u, 20u}) {
        c.now = now;
        d.run_recurrent();
    }
    const int want[] = {1, 1, 2, 3, 1, 1, 2, 3};
    KT_REQUIRE(t.n == 8);
    for (int i = 0; i < 8; ++i) KT_CHECK_EQ(t.v[i], want[i]);
}

// A due time of 2^64 - 1 is a time like any other (time.hpp's line wraps):
// next_due() must not confuse it with "nothing registered".
inline void recurrent_next_due_at_the_end_of_the_time_line() {
    fake_clock c;
    c.now = ~std::uint64_t{0} - 100;
    kairos::deferred<4, 4> d(c.source());
    std::uint64_t due = 12345;
    KT_CHECK(!d.next_due(due));  // nothing registered
    KT_CHECK_EQ(due, 12345u);    // left alone
    auto h = d.schedule_recurrent([] { return true; }, 100);
    KT_REQUIRE(h);
    KT_CHECK(d.next_due(due));
    KT_CHECK_EQ(due, ~std::uint64_t{0});  // a due time like any other
    KT_CHECK_EQ(d.recurrent_delay_us(), 100u);
    c.now = ~std::uint64_t{0};
    KT_CHECK_EQ(d.run_recurrent(), 1u);
    KT_CHECK(d.next_due(due));
    KT_CHECK_EQ(due, 99u);  // across the wrap
    KT_CHECK(h.cancel());
    KT_CHECK(!d.next_due(due));
}

// ---- timer queue -----------------------------------------------------------

inline void timer_queue_order_and_due() {
    kairos::timer_queue<8> q;
    kairos::timer_node a, b, c, d;
    KT_CHECK(q.empty());
    KT_CHECK(!q.due(0));
    KT_CHECK(q.pop_due(~0ull) == nullptr);
    q.arm(a, 30);
    q.arm(b, 10);
    q.arm(c, 20);
    q.arm(d, 10);  // tie with b: after b
    KT_CHECK_EQ(q.next_due(), 10u);
    KT_CHECK(!q.due(9));
    KT_CHECK(q.due(10));
    KT_CHECK(q.pop_due(10) == &b);
    KT_CHECK(q.pop_due(10) == &d);
    KT_CHECK(q.pop_due(10) == nullptr);
    q.disarm(c);
    KT_CHECK(!c.armed());
    KT_CHECK(q.pop_due(100) == &a);
    KT_CHECK(q.empty());
    // Re-arming moves a timer; disarm of an unarmed timer is harmless.
    q.arm(a, 5);
    q.arm(b, 7);
    q.arm(a, 9);
    KT_CHECK(q.pop_due(100) == &b);
    KT_CHECK(q.pop_due(100) == &a);
    q.disarm(a);
    // Wrap-correct ordering near the end of the 64-bit line.
    const std::uint64_t top = ~std::uint64_t{0};
    q.arm(a, 5);          // after the wrap
    q.arm(b, top - 5);    // before it
    KT_CHECK(q.pop_due(top) == &b);
    KT_CHECK(q.pop_due(top) == nullptr);
    KT_CHECK(q.pop_due(5) == &a);
}

// ---- polled timeouts -------------------------------------------------------

// fake_ms32 is a settable 32-bit millisecond source.
struct fake_ms32 {
    using time_type = std::uint32_t;
    static time_type& value() noexcept {
        static time_type v = 0;
        return v;
    }
    static time_type now() noexcept { return value(); }
};

inline void polled_timeout_one_shot_and_periodic_across_wrap() {
    using one_shot = kairos::polled_timeout<false, fake_ms32>;
    using periodic = kairos::polled_timeout<true, fake_ms32>;
    fake_ms32::value() = 0xFFFFFFF0u;  // 16 ms before the counter wraps
    one_shot o(100);
    periodic p(10);
    int ticks = 0;
    for (int i = 0; i < 200; ++i) {
        ++fake_ms32::value();
        if (p) ++ticks;
        KT_CHECK_EQ(o.expired(), i + 1 >= 100);
    }
    KT_CHECK_EQ(ticks, 20);
    // Missed periods are skipped: one expiry after a long stall, phase kept.
    fake_ms32::value() += 35;
    KT_CHECK(p.expired());
    KT_CHECK(!p.expired());
    fake_ms32::value() += 5;
    KT_CHECK(p.expired());
    // A one-shot stays expired across a further full wrap of the counter.
    fake_ms32::value() += 0x80000000u;
    fake_ms32::value() += 0x80000000u;
    KT_CHECK(o.expired());
    o.reset();
    KT_CHECK(!o.expired());
    o.reset(5);
    fake_ms32::value() += 5;
    KT_CHECK(o.expired());
    // Never-expires and always-expired.
    one_shot n(one_shot::never_expires);
    KT_CHECK(!n.can_expire());
    fake_ms32::value() += 0x7FFFFFFFu;
    KT_CHECK(!n.expired());
    one_shot z(one_shot::always_expired);
    KT_CHECK(!z.can_wait());
    KT_CHECK(z.expired());
    periodic pz(0);
    KT_CHECK(pz.expired());
    KT_CHECK(pz.expired());
    o.reset_to_never_expires();
    fake_ms32::value() += 1000;
    KT_CHECK(!o.expired());
    KT_CHECK_EQ(one_shot::time_max(), 0xFFFFFFFEu);
}

}  // namespace scenarios

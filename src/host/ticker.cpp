// SPDX-License-Identifier: MIT
// Host ticker: a kairos interrupt on the port's signal entry
// (host::attach_signal), so its callback runs in isr context under the
// virtual interrupt mask like any other host interrupt: in_isr() is true,
// irq_disable() in the armed thread defers it to the unmasking
// irq_restore(), and it may call what an ISR may (kernel::wakeup(),
// deferred::schedule()).
//
// Real clock: each armed ticker has a timer_create() timer that sends
// ticker::signal_number() to the arming thread (SIGEV_THREAD_ID). Virtual
// clock (host::use_virtual_clock()): no POSIX timer; the port raises the
// signal's handler when virtual time reaches host::set_virtual_alarm(),
// which is kept at the earliest armed due time.
//
// Dispatch carries no tag in the signal: the handler scans the slot table
// and runs each ticker of this thread whose due time (port::now_us()) has
// come, then moves that due time past now. A signal that was still pending
// from an earlier arming, or from a ticker already destroyed, finds its
// slot not due (re-armed later) or free and runs nothing; there is no
// counter that could wrap into an old value. A timer expires at or after
// the due time recorded for it (the due time is read before the timer is
// started), so a signal is never early for its own arming.
#include <kairos/port.hpp>
#include <kairos/ticker.hpp>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <sys/syscall.h>
#include <unistd.h>

#include "kairos_host.hpp"

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

namespace kairos {

static_assert(sizeof(timer_t) <= sizeof(void*), "timer_t must fit the ticker's handle");

namespace {
constexpr int max_tickers = 256;

// One entry per ticker that was ever armed (until its destruction). owner
// is claimed by CAS among arming threads. tid, period and due belong to the
// owner's thread: written by arm()/detach() there under irq_disable() (so
// that thread's handler cannot run meanwhile) and by that thread's handler.
// Handlers of other threads only read them to skip the entry.
struct slot {
    std::atomic<ticker*> owner{nullptr};
    std::atomic<long> tid{0};             // OS thread the signal goes to
    std::atomic<std::uint64_t> period{0};  // µs; 0: one-shot
    std::atomic<std::uint64_t> due{0};     // port time of the next call; 0: not armed
};
slot table[max_tickers];

long this_tid() noexcept { return static_cast<long>(syscall(SYS_gettid)); }  // async-signal-safe

timer_t as_timer(void* p) noexcept {
    timer_t t;
    std::memcpy(&t, &p, sizeof t);
    return t;
}

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) noexcept {
    return a > UINT64_MAX - b ? UINT64_MAX - 1 : a + b;
}

// update_virtual_alarm() points the port's virtual alarm at the earliest
// armed ticker (virtual clock only; one thread drives virtual time).
void update_virtual_alarm() noexcept {
    std::uint64_t next = UINT64_MAX;
    for (slot& e : table) {
        // relaxed: virtual time has one driving thread; program order.
        const std::uint64_t d = e.due.load(std::memory_order_relaxed);
        if (d != 0 && d < next) next = d;
    }
    host::set_virtual_alarm(ticker::signal_number(), next);
}
}  // namespace

// ticker_dispatch is the interrupt handler's access to the ticker's privates.
struct ticker_dispatch {
    static void on_interrupt() noexcept {
        const int saved_errno = errno;
        const bool virt = host::virtual_clock();
        const long me = virt ? 0 : this_tid();
        const std::uint64_t now = port::now_us();
        for (slot& e : table) {
            // acquire: pairs with arm()'s release store of due; the owner,
            // tid, period and the callback written before it are visible.
            const std::uint64_t d = e.due.load(std::memory_order_acquire);
            if (d == 0 || d > now) continue;
            // relaxed: ordered by the acquire load of due above.
            if (!virt && e.tid.load(std::memory_order_relaxed) != me) continue;
            ticker* t = e.owner.load(std::memory_order_relaxed);  // relaxed: as above
            if (t == nullptr) continue;
            // The next due time is stored before the callback runs, so a
            // detach() or re-arm from the callback has the last word.
            const std::uint64_t p = e.period.load(std::memory_order_relaxed);  // relaxed: as above
            if (p == 0) {
                e.due.store(0, std::memory_order_relaxed);  // relaxed: this thread's entry
                // release: a thread that sees the ticker inactive needs no other data.
                t->active_.store(false, std::memory_order_release);
            } else {
                const std::uint64_t skipped = (now - d) / p;  // periods nobody can call back
                e.due.store(saturating_add(d, (skipped + 1) * p), std::memory_order_relaxed);  // relaxed: as above
                // relaxed: a statistic.
                if (skipped != 0) t->overruns_.fetch_add(static_cast<std::uint32_t>(skipped), std::memory_order_relaxed);
            }
            t->fire();
        }
        if (virt) update_virtual_alarm();
        errno = saved_errno;
    }
};

int ticker::signal_number() noexcept { return SIGRTMIN + 2; }

bool ticker::arm(std::uint64_t us, bool periodic, callback&& cb) noexcept {
    if (us == 0 || !cb) return false;
    // Thread-safe once (a static's initialization): installed before any
    // timer of any thread can send the signal.
    static const bool attached =
        host::attach_signal(signal_number(), &ticker_dispatch::on_interrupt);
    if (!attached) return false;
    const port::irq_state s = port::irq_disable();  // this thread's handler waits
    detach();
    if (timer_ != nullptr) {
        timer_delete(as_timer(timer_));
        timer_ = nullptr;
    }
    if (slot_ < 0) {
        for (int i = 0; i < max_tickers && slot_ < 0; ++i) {
            ticker* expected = nullptr;
            // acq_rel: claims a free entry against other arming threads.
            if (table[i].owner.compare_exchange_strong(expected, this, std::memory_order_acq_rel))
                slot_ = i;
        }
        if (slot_ < 0) {
            port::irq_restore(s);
            return false;
        }
    }
    slot& e = table[slot_];
    const bool virt = host::virtual_clock();
    const long tid = this_tid();
    if (!virt) {
        sigevent sev;
        std::memset(&sev, 0, sizeof sev);
        sev.sigev_notify = SIGEV_THREAD_ID;
        sev.sigev_signo = signal_number();
        sev.sigev_notify_thread_id = static_cast<pid_t>(tid);
        timer_t t;
        if (timer_create(CLOCK_MONOTONIC, &sev, &t) != 0) {
            port::irq_restore(s);
            return false;
        }
        std::memcpy(&timer_, &t, sizeof t);
    }
    cb_ = std::move(cb);
    periodic_ = periodic;
    e.tid.store(tid, std::memory_order_relaxed);  // relaxed: published by the due store below
    e.period.store(periodic ? us : 0, std::memory_order_relaxed);  // relaxed: as above
    // release: pairs with the handler's acquire load in active().
    active_.store(true, std::memory_order_release);
    // Read before the timer starts: its expiry is never before this due time.
    const std::uint64_t due = saturating_add(port::now_us(), us);
    // release: a handler that reads this due time sees cb_, tid and period.
    e.due.store(due, std::memory_order_release);
    bool ok = true;
    if (virt) {
        update_virtual_alarm();
    } else {
        itimerspec its;
        std::memset(&its, 0, sizeof its);
        its.it_value.tv_sec = static_cast<time_t>(us / 1000000u);
        its.it_value.tv_nsec = static_cast<long>(us % 1000000u) * 1000;
        if (periodic) its.it_interval = its.it_value;
        ok = timer_settime(as_timer(timer_), 0, &its, nullptr) == 0;
        if (!ok) detach();
    }
    port::irq_restore(s);
    return ok;
}

void ticker::detach() noexcept {
    // release: a callback that observes inactive needs no other data.
    active_.store(false, std::memory_order_release);
    if (slot_ >= 0) {
        // relaxed: the handler of this thread is masked out or is the caller.
        table[slot_].due.store(0, std::memory_order_relaxed);
        if (host::virtual_clock()) update_virtual_alarm();
    }
    if (timer_ != nullptr) {
        itimerspec zero;
        std::memset(&zero, 0, sizeof zero);
        timer_settime(as_timer(timer_), 0, &zero, nullptr);  // async-signal-safe
    }
}

void ticker::fire() noexcept { cb_(); }

ticker::~ticker() {
    if (slot_ < 0 && timer_ == nullptr) return;
    const port::irq_state s = port::irq_disable();  // this thread's handler waits
    detach();
    if (timer_ != nullptr) timer_delete(as_timer(timer_));
    if (slot_ >= 0) table[slot_].owner.store(nullptr, std::memory_order_release);  // release: frees the entry
    port::irq_restore(s);
}

}  // namespace kairos

// SPDX-License-Identifier: MIT
// kairos/ticker.hpp: a periodic or one-shot timer whose callback runs in
// interrupt context: on hosts, in a POSIX signal handler.
//
// The host implementation (src/host/ticker.cpp) arms a timer_create() timer
// that sends a real-time signal (ticker::signal_number()) to the thread that
// armed it, taken through the host port's interrupt entry: the callback is
// a kairos interrupt on that thread (port::in_isr() true, deferred while the
// thread holds irq_disable()). The callback therefore may only do ISR-safe,
// async-signal-safe work: typically deferred::schedule() or
// kernel::wakeup(). Missed ticks (the thread was descheduled or masked) are
// not replayed; overruns() counts them. On the host port's virtual clock
// (kairos::host::use_virtual_clock()) it fires on virtual time instead. This header is portable (no
// POSIX types). On the MCU ports (port/mcu_common/ticker.cpp) tickers are
// multiplexed on the port's 1 ms tick interrupt (SysTick, lx106 CCOMPARE0)
// and their callbacks run in that interrupt, at 1 ms resolution.
#pragma once

#include <kairos/inplace_function.hpp>

#include <atomic>
#include <cstdint>
#include <utility>

namespace kairos {

class ticker {
public:
    using callback = inplace_function<void()>;

    ticker() noexcept = default;
    // ~ticker() stops the timer. Context: the thread that armed it (its
    // signals go to that thread only, so none can be running meanwhile).
    ~ticker();
    ticker(const ticker&) = delete;
    ticker& operator=(const ticker&) = delete;

    // attach_us(period, f) calls f every period µs, in signal context, until
    // detach(). attach_* and once_* replace a previous arming. Returns false
    // if the timer could not be created (errno-level failure) or period is 0.
    // Context: task.
    template <class F>
    bool attach_us(std::uint64_t period_us, F&& f) noexcept {
        return arm(period_us, true, callback(std::forward<F>(f)));
    }
    template <class F>
    bool attach_ms(std::uint32_t period_ms, F&& f) noexcept {
        return attach_us(std::uint64_t{period_ms} * 1000u, std::forward<F>(f));
    }
    // once_us(delay, f) calls f once, delay µs from now, in signal context.
    template <class F>
    bool once_us(std::uint64_t delay_us, F&& f) noexcept {
        return arm(delay_us, false, callback(std::forward<F>(f)));
    }
    template <class F>
    bool once_ms(std::uint32_t delay_ms, F&& f) noexcept {
        return once_us(std::uint64_t{delay_ms} * 1000u, std::forward<F>(f));
    }

    // detach() stops the timer; no callback starts after it returns (on the
    // arming thread). Context: any, including the callback itself
    // (async-signal-safe: timer_settime only).
    void detach() noexcept;

    // active() is true while the timer is armed (a one-shot until it fired).
    bool active() const noexcept {
        // acquire: pairs with the release stores in arm()/detach()/fire.
        return active_.load(std::memory_order_acquire);
    }

    // overruns() counts periods skipped because the callback could not run
    // in time (its signal was late or deferred by the mask).
    std::uint32_t overruns() const noexcept {
        // relaxed: a statistic.
        return overruns_.load(std::memory_order_relaxed);
    }

    // signal_number() is the real-time signal tickers use (SIGRTMIN + 2).
    static int signal_number() noexcept;

private:
    friend struct ticker_dispatch;
    bool arm(std::uint64_t us, bool periodic, callback&& cb) noexcept;
    void fire() noexcept;  // from the signal handler

    callback cb_;
    void* timer_ = nullptr;  // timer_t
    int slot_ = -1;          // index in the signal dispatch table
    bool periodic_ = false;
    std::atomic<bool> active_{false};
    std::atomic<std::uint32_t> overruns_{0};
};

}  // namespace kairos

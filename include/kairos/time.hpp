// SPDX-License-Identifier: MIT
// kairos/time.hpp: the 64-bit microsecond time line and its injectable
// source.
//
// The deferred scheduler and the timer queue keep every deadline as a 64-bit
// microsecond count. 2^64 µs is 584 000 years, but the comparisons below are
// still wrap-correct (signed difference), so a clock that starts anywhere,
// even just below 2^64, works. A 32-bit hardware counter that wraps every
// 71.6 minutes is widened with extend32 before it reaches the scheduler.
#pragma once

#include <kairos/port.hpp>

#include <cstdint>

namespace kairos {

// time_before(a, b) is true when instant a is earlier than instant b.
// Correct across wraparound of the 64-bit count while |a - b| < 2^63.
constexpr bool time_before(std::uint64_t a, std::uint64_t b) noexcept {
    return static_cast<std::int64_t>(a - b) < 0;
}

// clock_source is an injectable 64-bit microsecond clock: a function pointer
// plus a context pointer, so a test can substitute a fake clock without
// templates or virtual calls. Reading it must be allowed in every context
// the owner reads it from (the scheduler reads it in task context only).
struct clock_source {
    using read_fn = std::uint64_t (*)(void* ctx) noexcept;
    read_fn read;
    void* ctx;

    std::uint64_t operator()() const noexcept { return read(ctx); }

    // port() is the port's monotonic clock, kairos::port::now_us().
    static constexpr clock_source port() noexcept {
        return {[](void*) noexcept { return kairos::port::now_us(); }, nullptr};
    }
};

// whole_periods(gap, period, span) returns gap / period, rounded down, and
// sets span to that many periods (k * period <= gap), for period > 0 and
// gap < 2^63, with neither a 64-bit division nor a multiply: on 32-bit
// cores those are library calls (__udivmoddi4, about 700 bytes on
// Cortex-M; __udivdi3 and __muldi3 on lx106). Strides of whole periods are
// doubled, then halved: O(log k) steps, none when gap < period. It is how
// the deferred scheduler and the MCU tickers skip the periods a stall
// missed.
constexpr std::uint64_t whole_periods(std::uint64_t gap, std::uint64_t period,
                                      std::uint64_t& span) noexcept {
    std::uint64_t k = 0, done = 0;  // done = k * period <= gap
    std::uint64_t n = 1, step = period;
    while (gap - done >= step) {
        done += step;
        k += n;
        step <<= 1;  // <= 2 * gap: no overflow below 2^63
        n <<= 1;
    }
    while (n > 1) {
        step >>= 1;
        n >>= 1;
        if (gap - done >= step) {
            done += step;
            k += n;
        }
    }
    span = done;
    return k;
}

// extend32 widens a wrapping 32-bit tick counter to a 64-bit count.
// operator()(raw) returns the 64-bit value of raw, given that it is called
// at least once per 2^32 ticks (each reading no more than one wrap after the
// previous one). Not thread-safe: one reader, or the caller serializes.
class extend32 {
public:
    constexpr explicit extend32(std::uint64_t start = 0) noexcept : last_(start) {}
    std::uint64_t operator()(std::uint32_t raw) noexcept {
        last_ += static_cast<std::uint32_t>(raw - static_cast<std::uint32_t>(last_));
        return last_;
    }

private:
    std::uint64_t last_;
};

}  // namespace kairos

// SPDX-License-Identifier: MIT
// kairos/polled_timeout.hpp: timeouts checked by polling, one-shot or
// periodic, correct across wraparound of the time source.
//
// polled_timeout<Periodic, TimeSource> measures elapsed time as the unsigned
// difference now - start, which stays correct when a 32-bit millisecond or
// microsecond counter wraps (every 49.7 days / 71.6 minutes). Any timeout up
// to time_max() (the counter range minus two: never_expires is reserved)
// works, as on the ESP8266. A one-shot that has expired stays expired until
// reset(), even if the counter wraps again (the ESP8266 original
// "un-expires" after a full wrap), and a one-shot sees its expiry even when
// the poll that would have caught it comes only after now - start wrapped:
// it only needs one poll per counter range. A periodic timeout re-arms
// itself on expiry and skips missed periods instead of firing a burst:
// after a stall of 3.5 periods, expired() is true once, and the next expiry
// stays on the original phase; it must be polled within (counter range -
// timeout) of each expiry, or that period goes unseen.
//
// Context: any, if TimeSource::now() is (the host sources read
// CLOCK_MONOTONIC through the vDSO, which is async-signal-safe). One object is
// not meant to be polled from two contexts at once. Time sources must be
// monotonic (modulo their wrap).
#pragma once

#include <kairos/config.hpp>
#include <kairos/bits.hpp>
#include <kairos/port.hpp>

#include <cstdint>
#include <type_traits>

namespace kairos {

// Time sources: a time_type (unsigned) and a static now(). These read the
// port's 64-bit microsecond clock and truncate, so they wrap exactly like the
// 32-bit millis()/micros() counters of Arduino cores.
namespace timesrc {
struct ms32 {
    using time_type = std::uint32_t;
    static time_type now() noexcept { return static_cast<time_type>(div_u64<1000>(port::now_us())); }
};
struct us32 {
    using time_type = std::uint32_t;
    static time_type now() noexcept { return static_cast<time_type>(port::now_us()); }
};
// ns32 has microsecond resolution, counted in nanoseconds: it wraps every
// 4.29 s, which is also its longest timeout.
struct ns32 {
    using time_type = std::uint32_t;
    static time_type now() noexcept { return static_cast<time_type>(port::now_us() * 1000u); }
};
// us64 never wraps in practice: any timeout up to 2^63 µs.
struct us64 {
    using time_type = std::uint64_t;
    static time_type now() noexcept { return port::now_us(); }
};
}  // namespace timesrc

namespace detail {
// one_shot_latch<T> decides and remembers the expiry of a one-shot timeout
// measured on a wrapping unsigned counter of type T, for a finite non-zero
// timeout. It keeps the elapsed time it saw last: elapsed time that went
// down means now - start wrapped past 2^bits, which is past any timeout.
// A (start, timeout) pair different from the last call's starts afresh, so
// owners that write those values directly (derived ESP8266 classes) need
// not tell it; reset() paths call clear(), since a new start can equal the
// old one.
template <class T>
class one_shot_latch {
public:
    void clear() noexcept {
        fired_ = false;
        last_ = 0;
    }
    // expired(now, start, timeout) is true from the first call that finds
    // now - start >= timeout (or wrapped) on, until clear() or a new pair.
    bool expired(T now, T start, T timeout) noexcept {
        if (start != start_ || timeout != timeout_) {
            start_ = start;
            timeout_ = timeout;
            clear();
        }
        if (!fired_) {
            const T elapsed = static_cast<T>(now - start);
            fired_ = elapsed >= timeout || elapsed < last_;
            last_ = elapsed;
        }
        return fired_;
    }

private:
    T start_ = 0;
    T timeout_ = 0;
    T last_ = 0;
    bool fired_ = false;
};

// periodic_expired(now, start, period, never) is the expiry test of a
// periodic timeout with a finite non-zero period: on expiry it moves start
// on by every whole period elapsed (missed ones skipped, phase kept).
template <class T>
bool periodic_expired(T now, T& start, T period, bool never) noexcept {
    if (never || static_cast<T>(now - start) < period) return false;
    start = static_cast<T>(start + static_cast<T>(static_cast<T>(now - start) / period) * period);
    return true;
}
}  // namespace detail

// no_yield is the default yield policy: expired() does nothing else.
struct no_yield {
    static void execute() noexcept {}
};

template <bool Periodic, class TimeSource = timesrc::ms32, class YieldPolicy = no_yield>
class polled_timeout {
public:
    using time_type = typename TimeSource::time_type;
    static_assert(std::is_unsigned_v<time_type>,
                  "polled_timeout: the time source must count in an unsigned type");

    // always_expired: expired() is always true (a zero timeout).
    static constexpr time_type always_expired = 0;
    // never_expires: expired() is never true.
    static constexpr time_type never_expires = static_cast<time_type>(~time_type(0));
    // time_max() is the longest finite timeout: the counter range minus two
    // (never_expires itself is reserved), as the ESP8266's timeMax().
    static constexpr time_type time_max() noexcept { return static_cast<time_type>(never_expires - 1); }

    // polled_timeout(timeout) starts a timeout of `timeout` ticks of the time
    // source from now. Precondition: timeout <= time_max() or never_expires.
    explicit polled_timeout(time_type timeout) noexcept { reset(timeout); }

    // expired() is true when the timeout has run out. A periodic timeout then
    // re-arms on its phase (missed periods skipped); a one-shot stays expired.
    bool expired() noexcept {
        YieldPolicy::execute();
        if constexpr (Periodic) {
            return expired_retrigger();
        } else {
            return expired_one_shot();
        }
    }
    explicit operator bool() noexcept { return expired(); }

    // reset(timeout) restarts with a new timeout. Precondition as for the
    // constructor; a larger value is treated as never_expires.
    void reset(time_type timeout) noexcept {
        KAIROS_ASSERT(timeout <= time_max() || timeout == never_expires);
        timeout_ = timeout;
        never_ = timeout > time_max();
        reset();
    }
    // reset() restarts the current timeout from now.
    void reset() noexcept {
        start_ = TimeSource::now();
        latch_.clear();
    }
    // reset_to_never_expires() makes expired() false until the next reset(t).
    void reset_to_never_expires() noexcept {
        timeout_ = never_expires;
        never_ = true;
        latch_.clear();
    }

    time_type timeout() const noexcept { return timeout_; }
    bool can_expire() const noexcept { return !never_; }
    bool can_wait() const noexcept { return timeout_ != always_expired; }

private:
    bool expired_one_shot() noexcept {
        if (!can_wait()) return true;
        return !never_ && latch_.expired(TimeSource::now(), start_, timeout_);
    }
    bool expired_retrigger() noexcept {
        if (!can_wait()) return true;
        return detail::periodic_expired(TimeSource::now(), start_, timeout_, never_);
    }

    time_type start_ = 0;
    time_type timeout_ = 0;
    bool never_ = false;
    detail::one_shot_latch<time_type> latch_;
};

}  // namespace kairos

// kairos/polled_timeout.hpp: timeouts checked by polling, one-shot or
// periodic, correct across wraparound of the time source.
//
// polled_timeout<Periodic, TimeSource> measures elapsed time as the unsigned
// difference now - start, which stays correct when a 32-bit millisecond or
// microsecond counter wraps (every 49.7 days / 71.6 minutes), as long as the
// timeout is at most time_max (half the counter range) and the object is
// polled at least once per half range after it expires. A one-shot that has
// expired stays expired until reset(), even if the counter wraps again (the
// ESP8266 original "un-expires" after a full wrap). A periodic timeout
// re-arms itself on expiry and skips missed periods instead of firing a
// burst: after a stall of 3.5 periods, expired() is true once, and the next
// expiry stays on the original phase.
//
// Context: any, if TimeSource::now() is (the host sources read
// CLOCK_MONOTONIC through the vDSO, which is async-signal-safe). One object is
// not meant to be polled from two contexts at once.
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
// 4.29 s, so its time_max is 2.1 s.
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
    // time_max() is the longest finite timeout: half the counter range, so
    // an expiry is still recognised half a range after it happened.
    static constexpr time_type time_max() noexcept { return never_expires / 2; }

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
        fired_ = false;
    }
    // reset_to_never_expires() makes expired() false until the next reset(t).
    void reset_to_never_expires() noexcept {
        timeout_ = never_expires;
        never_ = true;
        fired_ = false;
    }

    time_type timeout() const noexcept { return timeout_; }
    bool can_expire() const noexcept { return !never_; }
    bool can_wait() const noexcept { return timeout_ != always_expired; }

private:
    bool elapsed(time_type now) const noexcept {
        return !never_ && static_cast<time_type>(now - start_) >= timeout_;
    }
    bool expired_one_shot() noexcept {
        if (!fired_ && (!can_wait() || elapsed(TimeSource::now()))) fired_ = true;
        return fired_;
    }
    bool expired_retrigger() noexcept {
        if (!can_wait()) return true;
        const time_type now = TimeSource::now();
        if (!elapsed(now)) return false;
        const time_type periods = static_cast<time_type>(now - start_) / timeout_;
        start_ = static_cast<time_type>(start_ + periods * timeout_);  // skip missed periods
        return true;
    }

    time_type start_ = 0;
    time_type timeout_ = 0;
    bool never_ = false;
    bool fired_ = false;
};

}  // namespace kairos

// SPDX-License-Identifier: MIT
// PolledTimeout.h (kairos ESP8266 compatibility): esp8266::polledTimeout,
// the ESP8266 core's interface (timeoutTemplate with its protected members,
// YieldPolicy, TimePolicy::TimeUnit and the time sources) over kairos's
// wrap-correct expiry logic (kairos/polled_timeout.hpp).
//
// Differences from the ESP8266 core, all deliberate:
// - the "Fast" time policies read the host's monotonic clock (there is no
//   cycle counter to read), so their range is the full 32-bit counter:
//   FastMs/FastUs/FastNs time out up to 49.7 days / 71.6 min / 4.29 s (the
//   ESP8266's 26.8 s / 26.8 s / 1.07 s). TimeSourceCycles exists, counting a
//   virtual 80 MHz cycle counter, for policies built with TimeUnit;
// - a one-shot that expired stays expired across a counter wraparound, and
//   sees its expiry even if polled only after now - start wrapped;
// - a timeout above timeMax() (other than neverExpires) is an assertion
//   failure in debug builds instead of silently never expiring.
#pragma once

#include "Arduino.h"

#include <kairos/config.hpp>
#include <kairos/polled_timeout.hpp>

#include <cstdint>
#include <limits>
#include <type_traits>

namespace esp8266 {
namespace polledTimeout {

namespace YieldPolicy {
struct DoNothing {
    static void execute() {}
};
struct YieldOrSkip {
    static void execute() { delay(0); }
};
template <unsigned long delayMs>
struct YieldAndDelayMs {
    static void execute() { delay(delayMs); }
};
}  // namespace YieldPolicy

namespace TimePolicy {

// A time source: timeType (unsigned), time(), and its tick rate.
struct TimeSourceMillis {
    using timeType = decltype(millis());
    static timeType time() { return millis(); }
    static constexpr timeType ticksPerSecond = 1000;
    static constexpr timeType ticksPerSecondMax = 1000;
};

// TimeSourceCycles is the ESP8266 cycle counter's interface at its default
// 80 MHz (160 MHz max); on a host it counts the monotonic clock's
// microseconds times 80.
struct TimeSourceCycles {
    using timeType = std::uint32_t;
    static timeType time() { return static_cast<timeType>(kairos::port::now_us() * 80u); }
    static constexpr timeType ticksPerSecond = 80000000;
    static constexpr timeType ticksPerSecondMax = 160000000;
};

// TimeUnit<Source, second_th> counts user time in 1/second_th s (1000: ms)
// on Source's ticks. User values convert to ticks as
// value * user2UnitMultiplier / user2UnitDivider; rangeCompensate scales
// both so that a fractional number of units per tick (12.5 ns per cycle at
// 80 MHz) still divides exactly. timeMax is the longest user timeout at the
// fastest tick rate, the counter's maximum reserved for neverExpires.
template <typename TimeSourceType, unsigned long long second_th>
struct TimeUnit {
    using timeType = typename TimeSourceType::timeType;
    static constexpr timeType ticksPerSecond = TimeSourceType::ticksPerSecond;
    static constexpr timeType ticksPerSecondMax = TimeSourceType::ticksPerSecondMax;

private:
    static constexpr timeType compensation() {
        const double units_per_tick = static_cast<double>(second_th) / ticksPerSecond;
        const double fraction =
            units_per_tick - static_cast<double>(static_cast<unsigned long long>(units_per_tick));
        return fraction == 0 ? timeType{1} : static_cast<timeType>(units_per_tick / fraction + 0.5);
    }

public:
    static constexpr timeType rangeCompensate = compensation();
    static constexpr timeType user2UnitMultiplierMax = static_cast<timeType>(
        static_cast<unsigned long long>(ticksPerSecondMax) * rangeCompensate / second_th);
    static constexpr timeType user2UnitMultiplier = static_cast<timeType>(
        static_cast<unsigned long long>(ticksPerSecond) * rangeCompensate / second_th);
    static constexpr timeType user2UnitDivider = rangeCompensate;
    static_assert(user2UnitMultiplier != 0 && user2UnitMultiplierMax != 0,
                  "TimeUnit: the time source ticks too slowly for this unit (less than one "
                  "tick per rangeCompensate units); use a coarser unit or a faster source");
    static constexpr timeType timeMax =
        static_cast<timeType>((std::numeric_limits<timeType>::max() - 1) / user2UnitMultiplierMax);

    static timeType toTimeTypeUnit(const timeType userUnit) {
        return static_cast<timeType>(userUnit * user2UnitMultiplier / user2UnitDivider);
    }
    static timeType toUserUnit(const timeType internalUnit) {
        return static_cast<timeType>(internalUnit * user2UnitDivider / user2UnitMultiplier);
    }
    static timeType time() { return TimeSourceType::time(); }
};

namespace detail {
// host_source<Src, rate> presents a kairos time source (kairos::timesrc)
// counting `rate` ticks per second as an ESP8266 time source.
template <class Src, std::uint32_t rate>
struct host_source {
    using timeType = typename Src::time_type;
    static timeType time() { return Src::now(); }
    static constexpr timeType ticksPerSecond = rate;
    static constexpr timeType ticksPerSecondMax = rate;
};
}  // namespace detail

using TimeMillis = TimeUnit<TimeSourceMillis, 1000>;
using TimeFastMillis = TimeUnit<detail::host_source<kairos::timesrc::ms32, 1000>, 1000>;
using TimeFastMicros = TimeUnit<detail::host_source<kairos::timesrc::us32, 1000000>, 1000000>;
using TimeFastNanos =
    TimeUnit<detail::host_source<kairos::timesrc::ns32, 1000000000>, 1000000000>;

}  // namespace TimePolicy

template <bool PeriodicT, typename YieldPolicyT = YieldPolicy::DoNothing,
          typename TimePolicyT = TimePolicy::TimeMillis>
class timeoutTemplate {
public:
    using timeType = typename TimePolicyT::timeType;
    static_assert(std::is_unsigned<timeType>::value, "timeType must be unsigned");

    static constexpr timeType alwaysExpired = 0;
    static constexpr timeType neverExpires = std::numeric_limits<timeType>::max();
    static constexpr timeType rangeCompensate = TimePolicyT::rangeCompensate;

    timeoutTemplate(const timeType userTimeout) { reset(userTimeout); }  // implicit, as upstream

    bool expired() {
        YieldPolicyT::execute();
        if constexpr (PeriodicT) {
            return expiredRetrigger();
        } else {
            return expiredOneShot();
        }
    }
    operator bool() { return expired(); }

    bool canExpire() const { return !_neverExpires; }
    bool canWait() const { return _timeout != alwaysExpired; }

    // reset(t) restarts with a new timeout of t user units. Precondition:
    // t <= timeMax() or t == neverExpires (asserted).
    void reset(const timeType newUserTimeout) {
        KAIROS_ASSERT(newUserTimeout <= timeMax() || newUserTimeout == neverExpires);
        reset();
        _timeout = TimePolicyT::toTimeTypeUnit(newUserTimeout);
        _neverExpires = newUserTimeout > timeMax();
    }
    // reset() restarts the current timeout from now.
    void reset() {
        _start = TimePolicyT::time();
        latch_.clear();
    }
    // resetAndSetExpired(t) / () restart so that the next poll expires at
    // once; a periodic timeout then continues with a period from now.
    void resetAndSetExpired(const timeType newUserTimeout) {
        reset(newUserTimeout);
        _start = static_cast<timeType>(_start - _timeout);
    }
    void resetAndSetExpired() {
        reset();
        _start = static_cast<timeType>(_start - _timeout);
    }
    // resetToNeverExpires() makes expired() false until the next reset(t);
    // as upstream, the stored timeout becomes one tick (canWait() true).
    void resetToNeverExpires() {
        _timeout = alwaysExpired + 1;
        _neverExpires = true;
    }

    timeType getTimeout() const { return TimePolicyT::toUserUnit(_timeout); }
    static constexpr timeType timeMax() { return TimePolicyT::timeMax; }

protected:
    bool expiredRetrigger() {
        if (!canWait()) return true;
        return kairos::detail::periodic_expired(TimePolicyT::time(), _start, _timeout,
                                                _neverExpires);
    }
    bool expiredOneShot() const {
        if (!canWait()) return true;
        return !_neverExpires && latch_.expired(TimePolicyT::time(), _start, _timeout);
    }

    // As upstream, in time-source ticks; derived classes may write them.
    timeType _timeout;
    timeType _start;
    bool _neverExpires;

private:
    // mutable: expiredOneShot() is const upstream, and derived classes
    // call it from const members.
    mutable kairos::detail::one_shot_latch<timeType> latch_;
};

// legacy names (milliseconds)
using oneShot = timeoutTemplate<false>;
using periodic = timeoutTemplate<true>;

// timeMax() is 49.7 days ((2^32) - 2 ms), as upstream.
using oneShotMs = timeoutTemplate<false>;
using periodicMs = timeoutTemplate<true>;
using oneShotFastMs = timeoutTemplate<false, YieldPolicy::DoNothing, TimePolicy::TimeFastMillis>;
using periodicFastMs = timeoutTemplate<true, YieldPolicy::DoNothing, TimePolicy::TimeFastMillis>;
using oneShotFastUs = timeoutTemplate<false, YieldPolicy::DoNothing, TimePolicy::TimeFastMicros>;
using periodicFastUs = timeoutTemplate<true, YieldPolicy::DoNothing, TimePolicy::TimeFastMicros>;
using oneShotFastNs = timeoutTemplate<false, YieldPolicy::DoNothing, TimePolicy::TimeFastNanos>;
using periodicFastNs = timeoutTemplate<true, YieldPolicy::DoNothing, TimePolicy::TimeFastNanos>;
// A one-shot that yields while polled, as suggested by the upstream header.
using oneShotYieldMs = timeoutTemplate<false, YieldPolicy::YieldOrSkip>;

}  // namespace polledTimeout
}  // namespace esp8266

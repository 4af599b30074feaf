// PolledTimeout.h (kairos ESP8266 compatibility): esp8266::polledTimeout
// names over kairos::polled_timeout.
//
// Differences from the ESP8266 core, all deliberate:
// - the "Fast" time policies read the host's monotonic clock (there is no
//   cycle counter to read), so their range is larger: FastMs/FastUs time out
//   up to half the 32-bit range (24.8 days / 35.8 min), FastNs up to 2.1 s;
// - a one-shot that expired stays expired across a counter wraparound;
// - a timeout above timeMax() is an assertion failure in debug builds
//   instead of silently never expiring.
#pragma once

#include "Arduino.h"

#include <kairos/polled_timeout.hpp>

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
using TimeMillis = kairos::timesrc::ms32;
using TimeFastMillis = kairos::timesrc::ms32;
using TimeFastMicros = kairos::timesrc::us32;
using TimeFastNanos = kairos::timesrc::ns32;
}  // namespace TimePolicy

template <bool PeriodicT, typename YieldPolicyT = YieldPolicy::DoNothing,
          typename TimePolicyT = TimePolicy::TimeMillis>
class timeoutTemplate : public kairos::polled_timeout<PeriodicT, TimePolicyT, YieldPolicyT> {
    using base = kairos::polled_timeout<PeriodicT, TimePolicyT, YieldPolicyT>;

public:
    using timeType = typename base::time_type;
    static constexpr timeType alwaysExpired = base::always_expired;
    static constexpr timeType neverExpires = base::never_expires;

    timeoutTemplate(const timeType userTimeout) : base(userTimeout) {}  // implicit, as upstream

    operator bool() { return this->expired(); }
    bool canExpire() const { return this->can_expire(); }
    bool canWait() const { return this->can_wait(); }
    void resetToNeverExpires() { this->reset_to_never_expires(); }
    timeType getTimeout() const { return this->timeout(); }
    static constexpr timeType timeMax() { return base::time_max(); }
};

// legacy names (milliseconds)
using oneShot = timeoutTemplate<false>;
using periodic = timeoutTemplate<true>;

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

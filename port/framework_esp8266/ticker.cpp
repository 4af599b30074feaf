// SPDX-License-Identifier: MIT
// kairos::ticker on the ESP8266 framework: each armed ticker is an SDK
// software timer (ETSTimer, os_timer_*), as the core's own Ticker library
// uses. The callback runs where the SDK runs its timers: on hardware the
// SDK's timer task, not an interrupt (so it may do more than an ISR may);
// code written for kairos' interrupt-context contract is correct there too.
// Resolution: 1 ms when the period is a whole number of milliseconds, else
// microseconds (os_timer_arm_us, which the SDK only honours after
// system_timer_reinit()). overruns() stays 0: the SDK does not report
// missed periods.
#include <kairos/port.hpp>
#include <kairos/ticker.hpp>

#include <cstdint>

extern "C" {
// The SDK's ETSTimer (ets_sys.h), laid out as there; only the SDK touches
// its fields.
struct kairos_ets_timer {
    kairos_ets_timer* timer_next;
    std::uint32_t timer_expire;
    std::uint32_t timer_period;
    void (*timer_func)(void* arg);
    void* timer_arg;
};
void ets_timer_setfn(kairos_ets_timer* t, void (*fn)(void* arg), void* arg);  // os_timer_setfn
void ets_timer_arm_new(kairos_ets_timer* t, std::uint32_t time, bool repeat, bool ms);  // os_timer_arm(_us)
void ets_timer_disarm(kairos_ets_timer* t);  // os_timer_disarm
}
static_assert(sizeof(kairos_ets_timer) == 5 * sizeof(void*), "ETSTimer is five words");

#ifndef KAIROS_FRAMEWORK_MAX_TICKERS
#  define KAIROS_FRAMEWORK_MAX_TICKERS 8
#endif

namespace kairos {

namespace {

// One SDK timer per armed ticker: the SDK keeps a pointer to it while armed,
// so it lives here, not in the ticker. owners[i] == nullptr: free. Changed
// in task context with interrupts masked.
kairos_ets_timer timers[KAIROS_FRAMEWORK_MAX_TICKERS];
ticker* owners[KAIROS_FRAMEWORK_MAX_TICKERS];

// The longest delay ets_timer_arm_new() accepts, in ms (0x68D7A3, the
// SDK's documented bound).
constexpr std::uint64_t max_ms = 0x68D7A3u;

}  // namespace

struct ticker_dispatch {
    // expired(arg) is the SDK timer's function; arg is the ticker.
    static void expired(void* arg) noexcept {
        auto* t = static_cast<ticker*>(arg);
        if (!t->periodic_) {
            // release: pairs with active()'s acquire.
            t->active_.store(false, std::memory_order_release);
        }
        t->fire();
    }
};

ticker::~ticker() {
    detach();
    const port::irq_state s = port::irq_disable();
    if (slot_ >= 0) owners[slot_] = nullptr;
    slot_ = -1;
    port::irq_restore(s);
}

bool ticker::arm(std::uint64_t us, bool periodic, callback&& cb) noexcept {
    if (us == 0) return false;
    const bool whole_ms = us % 1000u == 0;
    if ((whole_ms ? us / 1000u : us / 1000u + 1u) > max_ms) return false;
    const port::irq_state s = port::irq_disable();
    if (slot_ < 0) {
        for (int i = 0; i < KAIROS_FRAMEWORK_MAX_TICKERS; ++i) {
            if (owners[i] == nullptr) {
                owners[i] = this;
                slot_ = i;
                break;
            }
        }
    }
    port::irq_restore(s);
    if (slot_ < 0) return false;
    kairos_ets_timer* t = &timers[slot_];
    ets_timer_disarm(t);
    cb_ = std::move(cb);
    periodic_ = periodic;
    timer_ = t;
    // release: pairs with active()'s acquire.
    active_.store(true, std::memory_order_release);
    ets_timer_setfn(t, &ticker_dispatch::expired, this);
    ets_timer_arm_new(t, static_cast<std::uint32_t>(whole_ms ? us / 1000u : us), periodic, whole_ms);
    return true;
}

void ticker::detach() noexcept {
    if (timer_ != nullptr) ets_timer_disarm(static_cast<kairos_ets_timer*>(timer_));
    // release: pairs with active()'s acquire.
    active_.store(false, std::memory_order_release);
}

void ticker::fire() noexcept {
    if (cb_) cb_();
}

// No POSIX signals under the SDK.
int ticker::signal_number() noexcept { return -1; }

}  // namespace kairos

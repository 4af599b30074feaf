// SPDX-License-Identifier: MIT
// kairos::ticker on ESP-IDF: each ticker owns an esp_timer, created at its
// first arming and deleted with it. The callback is dispatched from the
// esp_timer task (ESP_TIMER_TASK, the framework's default), a
// high-priority FreeRTOS task, not an interrupt: code written for kairos'
// interrupt-context contract is correct there too, and it needs no IRAM.
// Resolution: microseconds (esp_timer's). overruns() stays 0: esp_timer
// does not report missed periods (it runs late callbacks instead).
#include <kairos/port.hpp>
#include <kairos/ticker.hpp>

#include <cstdint>

#include "esp_timer.h"

namespace kairos {

struct ticker_dispatch {
    // expired(arg) is the esp_timer callback; arg is the ticker.
    static void expired(void* arg) {
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
    if (timer_ != nullptr) esp_timer_delete(static_cast<esp_timer_handle_t>(timer_));
    timer_ = nullptr;
}

bool ticker::arm(std::uint64_t us, bool periodic, callback&& cb) noexcept {
    if (us == 0) return false;
    if (timer_ == nullptr) {
        esp_timer_create_args_t args{};
        args.callback = &ticker_dispatch::expired;
        args.arg = this;
        args.dispatch_method = ESP_TIMER_TASK;
        args.name = "kairos";
        esp_timer_handle_t h = nullptr;
        if (esp_timer_create(&args, &h) != ESP_OK) return false;
        timer_ = h;
    }
    auto* const h = static_cast<esp_timer_handle_t>(timer_);
    esp_timer_stop(h);  // ESP_ERR_INVALID_STATE when not running: nothing to stop
    cb_ = std::move(cb);
    periodic_ = periodic;
    // release: pairs with active()'s acquire.
    active_.store(true, std::memory_order_release);
    const esp_err_t e = periodic ? esp_timer_start_periodic(h, us) : esp_timer_start_once(h, us);
    if (e != ESP_OK) {
        // release: pairs with active()'s acquire.
        active_.store(false, std::memory_order_release);
        return false;
    }
    return true;
}

// detach() stops the timer; a callback the esp_timer task already started
// finishes. Context: any task, including the callback.
void ticker::detach() noexcept {
    if (timer_ != nullptr) esp_timer_stop(static_cast<esp_timer_handle_t>(timer_));
    // release: pairs with active()'s acquire.
    active_.store(false, std::memory_order_release);
}

void ticker::fire() noexcept {
    if (cb_) cb_();
}

// No POSIX signals under ESP-IDF.
int ticker::signal_number() noexcept { return -1; }

}  // namespace kairos

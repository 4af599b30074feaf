// SPDX-License-Identifier: MIT
// BASELINE, FOR BENCHMARKS ONLY: see esp8266_linked_list.hpp.
#include "esp8266_linked_list.hpp"

// The interrupt lock and the cycle counter come from
// <esp8266_linked_list_platform.hpp>, found on the include path of the
// build: bench/host (signals masked, rdtsc) or bench/target/linked_list
// (the port's interrupt mask, CCOUNT).
#include <esp8266_linked_list_platform.hpp>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <new>

namespace baseline {
namespace {

// periodic_timeout mirrors polledTimeout::periodicFastUs: the counter read
// on every check, missed periods skipped. 64-bit counts (the ESP8266 uses
// 32, at 80-160 MHz; a GHz counter needs 64 for the same range).
class periodic_timeout {
public:
    explicit periodic_timeout(std::uint32_t timeout_us) noexcept
        : timeout_(timeout_us * cycles_per_us()), start_(cycles()) {}
    bool expired() noexcept {
        const std::uint64_t t = cycles();
        if (t - start_ < timeout_) return false;
        if (timeout_ != 0) start_ += ((t - start_) / timeout_) * timeout_;
        return true;
    }

private:
    std::uint64_t timeout_;
    std::uint64_t start_;
};

}  // namespace

struct esp8266_linked_list::scheduled_fn {
    scheduled_fn* next = nullptr;
    std::function<void()> fn;
};

struct esp8266_linked_list::recurrent_fn {
    recurrent_fn* next = nullptr;
    std::function<bool()> fn;
    periodic_timeout call_now;
    std::function<bool()> alarm;
    explicit recurrent_fn(std::uint32_t us) : call_now(us) {}
};

esp8266_linked_list::~esp8266_linked_list() {
    for (scheduled_fn* p : {first_, unused_}) {
        while (p) {
            scheduled_fn* n = p->next;
            delete p;
            p = n;
        }
    }
    while (r_first_) {
        recurrent_fn* n = r_first_->next;
        delete r_first_;
        r_first_ = n;
    }
}

esp8266_linked_list::scheduled_fn* esp8266_linked_list::get_fn_unsafe() {
    scheduled_fn* result = nullptr;
    if (unused_) {
        result = unused_;
        unused_ = unused_->next;
    } else if (count_ < max_count) {
        result = new (std::nothrow) scheduled_fn;  // as upstream: new under the lock
        if (result) ++count_;
    }
    return result;
}

void esp8266_linked_list::recycle_fn_unsafe(scheduled_fn* fn) {
    fn->fn = nullptr;
    fn->next = unused_;
    unused_ = fn;
}

bool esp8266_linked_list::schedule_function(const std::function<void()>& fn) {
    if (!fn) return false;
    interrupt_lock lock;
    scheduled_fn* item = get_fn_unsafe();
    if (!item) return false;
    item->fn = fn;
    item->next = nullptr;
    if (first_)
        last_->next = item;
    else
        first_ = item;
    last_ = item;
    return true;
}

void esp8266_linked_list::run_scheduled_functions() {
    periodic_timeout yield_now(100000);  // "yield every 100 ms"; nothing to yield to here
    scheduled_fn* stop = last_;
    bool done = false;
    while (first_ && !done) {
        done = first_ == stop;
        first_->fn();
        {
            interrupt_lock lock;
            scheduled_fn* to_recycle = first_;
            if (last_ == first_) last_ = nullptr;
            first_ = first_->next;
            recycle_fn_unsafe(to_recycle);
        }
        if (yield_now.expired()) {
        }
    }
}

bool esp8266_linked_list::schedule_recurrent_function_us(const std::function<bool()>& fn,
                                                         std::uint32_t repeat_us,
                                                         const std::function<bool()>& alarm) {
    if (!fn) return false;
    recurrent_fn* item = new (std::nothrow) recurrent_fn(repeat_us);
    if (!item) return false;
    item->fn = fn;
    item->alarm = alarm;
    interrupt_lock lock;
    if (r_last_)
        r_last_->next = item;
    else
        r_first_ = item;
    r_last_ = item;
    return true;
}

void esp8266_linked_list::run_scheduled_recurrent_functions() {
    periodic_timeout yield_now(100000);
    recurrent_fn* current = r_first_;
    if (!current || fence_) return;
    fence_ = true;
    recurrent_fn* prev = nullptr;
    recurrent_fn* stop = r_last_;
    bool done;
    do {
        done = current == stop;
        const bool wakeup = current->alarm && current->alarm();
        const bool call_now = current->call_now.expired();
        if ((wakeup || call_now) && !current->fn()) {
            interrupt_lock lock;
            recurrent_fn* to_ditch = current;
            if (r_last_ == current) r_last_ = prev;
            current = current->next;
            if (prev)
                prev->next = current;
            else
                r_first_ = current;
            delete to_ditch;
        } else {
            prev = current;
            current = current->next;
        }
        if (yield_now.expired()) {
        }
    } while (current && !done);
    fence_ = false;
}

}  // namespace baseline

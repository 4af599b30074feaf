// SPDX-License-Identifier: MIT
// BASELINE, FOR BENCHMARKS ONLY: a reimplementation of the ESP8266 core's
// linked-list scheduler (cores/esp8266/Schedule.cpp as of the seed, PR
// #6139), the design kairos::deferred replaces. Not part of kairos.
//
// Faithful to that design, written from its description (no code copied):
// - one-shot functions are std::function<void()> in heap-allocated list
//   nodes, new'd on demand up to SCHEDULED_FN_MAX_COUNT and then recycled
//   through a free list, never freed;
// - every list update runs under an "interrupt lock"; on this host that is
//   pthread_sigmask blocking all signals, the equivalent of xt_rsil(15);
// - run_scheduled_functions() stops at the last node present on entry and
//   checks a 100 ms yield timeout per function;
// - recurrent functions are heap nodes (std::function fn and alarm, a
//   periodic timeout) in an unbounded list; every pass visits every node,
//   polling its alarm and reading the clock for its timeout.
#pragma once

#include <cstdint>
#include <functional>

namespace baseline {

class esp8266_linked_list {
public:
    static constexpr int max_count = 32;  // SCHEDULED_FN_MAX_COUNT

    esp8266_linked_list() = default;
    ~esp8266_linked_list();
    esp8266_linked_list(const esp8266_linked_list&) = delete;
    esp8266_linked_list& operator=(const esp8266_linked_list&) = delete;

    bool schedule_function(const std::function<void()>& fn);
    void run_scheduled_functions();
    bool schedule_recurrent_function_us(const std::function<bool()>& fn, std::uint32_t repeat_us,
                                        const std::function<bool()>& alarm = nullptr);
    void run_scheduled_recurrent_functions();

private:
    struct scheduled_fn;
    struct recurrent_fn;
    scheduled_fn* get_fn_unsafe();
    void recycle_fn_unsafe(scheduled_fn* fn);

    scheduled_fn* first_ = nullptr;
    scheduled_fn* last_ = nullptr;
    scheduled_fn* unused_ = nullptr;
    int count_ = 0;
    recurrent_fn* r_first_ = nullptr;
    recurrent_fn* r_last_ = nullptr;
    bool fence_ = false;
};

}  // namespace baseline

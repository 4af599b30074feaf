// SPDX-License-Identifier: MIT
// esp32_stub.hpp: the test's side of the ESP-IDF stand-in (include/): which
// core and context the calling host thread plays, the counter clock and
// its timers, task records for notifications, and what the port called.
// Deterministic: nothing here waits on wall time or starts a thread.
#pragma once

#include <atomic>
#include <cstdint>

#include "esp_timer.h"
#include "freertos/task.h"

struct tskTaskControlBlock {
    // relaxed everywhere: a counter; ordering comes from the rings under test.
    std::atomic<std::uint32_t> notified{0};
};

namespace esp32_stub {

// set_core(id) makes the calling thread core id (0 or 1; default 0) and
// set_in_isr(b) makes xPortInIsrContext() answer b on it.
void set_core(std::uint32_t id);
void set_in_isr(bool in_isr);

// masked_depth() is how deep the calling "core" has its interrupts masked
// by critical sections.
int masked_depth();

// Calls the port made, counted over all threads. relaxed: statistics read
// after the threads that made them were joined.
struct calls {
    std::atomic<std::uint64_t> enter_task{0}, exit_task{0}, enter_isr{0}, exit_isr{0};
    std::atomic<std::uint64_t> spin_waits{0};  // failed spinlock attempts
    std::atomic<std::uint64_t> notify_task{0}, notify_isr{0};
    std::atomic<std::uint64_t> yield_from_isr{0}, yield_from_isr_true{0};
    std::atomic<std::uint64_t> timers_created{0}, timers_deleted{0};
};
calls& counts();
void reset_counts();

// The clock: esp_timer_get_time() returns now(); advance_to(t) moves it to
// t, running each due timer callback in due order, on the calling thread.
std::int64_t now();
void advance_to(std::int64_t t);

// The last esp_timer_create() arguments (name, dispatch method) and how
// many stand-in timers are alive.
esp_timer_dispatch_t last_dispatch();
int live_timers();

// make_task() is a fresh task record; set_current_task(t) makes
// xTaskGetCurrentTaskHandle() return t on the calling thread.
TaskHandle_t make_task();
void set_current_task(TaskHandle_t t);

}  // namespace esp32_stub

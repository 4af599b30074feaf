// SPDX-License-Identifier: MIT
// The ESP-IDF stand-in's functions (include/ declares them with ESP-IDF's
// signatures): a real spinlock on atomics with per-core recursion and a
// per-core interrupt-mask depth, a counter clock whose timers fire when the
// test advances it, task records counting notifications.
#include "esp32_stub.hpp"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <deque>

#include "esp_rom_sys.h"
#include "esp_system.h"

namespace {

thread_local std::uint32_t this_core = 0;
thread_local bool this_in_isr = false;
thread_local int this_masked = 0;
thread_local TaskHandle_t this_task = nullptr;

esp32_stub::calls the_counts;

// relaxed: the clock is set and read by the test's thread(s) between
// ordered steps; the rings' own orders are what the test checks.
std::atomic<std::int64_t> clock_us{0};

struct timer_rec {
    esp_timer_cb_t cb = nullptr;
    void* arg = nullptr;
    bool in_use = false;
    bool armed = false;
    std::uint64_t period = 0;  // 0: one-shot
    std::int64_t due = 0;
};
}  // namespace

// esp_timer is the handle's pointee, as in ESP-IDF an opaque struct.
struct esp_timer : timer_rec {};

namespace {
esp_timer timers[16];
esp_timer_dispatch_t dispatch_seen = ESP_TIMER_MAX;
std::deque<tskTaskControlBlock> tasks;

void enter(portMUX_TYPE* mux) {
    ++this_masked;  // first this core's interrupts, as ESP-IDF does
    // acquire: a re-entry on the owning core reads its own store.
    if (__atomic_load_n(&mux->owner, __ATOMIC_ACQUIRE) == this_core) {
        ++mux->count;
        return;
    }
    std::uint32_t expected = SPINLOCK_FREE;
    // acquire on success: what the previous owner wrote before its release
    // is visible in the section; relaxed on failure: nothing was taken.
    while (!__atomic_compare_exchange_n(&mux->owner, &expected, this_core, false, __ATOMIC_ACQUIRE,
                                        __ATOMIC_RELAXED)) {
        expected = SPINLOCK_FREE;
        // relaxed: a statistic (and the other thread's progress signal).
        the_counts.spin_waits.fetch_add(1, std::memory_order_relaxed);
    }
    mux->count = 1;
}

void leave(portMUX_TYPE* mux) {
    // acquire: only the owner may leave; it reads its own store.
    if (__atomic_load_n(&mux->owner, __ATOMIC_ACQUIRE) != this_core || mux->count == 0 || this_masked == 0) {
        std::fprintf(stderr, "esp32 stub: critical section left by core %u that does not hold it\n",
                     static_cast<unsigned>(this_core));
        std::abort();
    }
    if (--mux->count == 0) {
        // release: the section's writes are visible to the next owner.
        __atomic_store_n(&mux->owner, SPINLOCK_FREE, __ATOMIC_RELEASE);
    }
    --this_masked;
}

}  // namespace

extern "C" {

BaseType_t xPortInIsrContext(void) { return this_in_isr ? pdTRUE : pdFALSE; }

void vPortEnterCritical(portMUX_TYPE* mux) {
    // relaxed: a statistic.
    the_counts.enter_task.fetch_add(1, std::memory_order_relaxed);
    enter(mux);
}
void vPortExitCritical(portMUX_TYPE* mux) {
    // relaxed: a statistic.
    the_counts.exit_task.fetch_add(1, std::memory_order_relaxed);
    leave(mux);
}
void esp32_stub_enter_critical_isr(portMUX_TYPE* mux) {
    // relaxed: a statistic.
    the_counts.enter_isr.fetch_add(1, std::memory_order_relaxed);
    enter(mux);
}
void esp32_stub_exit_critical_isr(portMUX_TYPE* mux) {
    // relaxed: a statistic.
    the_counts.exit_isr.fetch_add(1, std::memory_order_relaxed);
    leave(mux);
}

void esp32_stub_yield_from_isr(BaseType_t woken) {
    // relaxed: statistics.
    the_counts.yield_from_isr.fetch_add(1, std::memory_order_relaxed);
    if (woken == pdTRUE) the_counts.yield_from_isr_true.fetch_add(1, std::memory_order_relaxed);
}

TaskHandle_t xTaskGetCurrentTaskHandle(void) { return this_task; }

BaseType_t xTaskGenericNotify(TaskHandle_t t, UBaseType_t index, uint32_t, eNotifyAction action, uint32_t*) {
    if (t == nullptr || index != 0 || action != eIncrement) std::abort();
    // relaxed: counters.
    the_counts.notify_task.fetch_add(1, std::memory_order_relaxed);
    t->notified.fetch_add(1, std::memory_order_relaxed);
    return pdPASS;
}

void vTaskGenericNotifyGiveFromISR(TaskHandle_t t, UBaseType_t index, BaseType_t* woken) {
    if (t == nullptr || index != 0 || woken == nullptr) std::abort();
    // relaxed: counters.
    the_counts.notify_isr.fetch_add(1, std::memory_order_relaxed);
    t->notified.fetch_add(1, std::memory_order_relaxed);
    *woken = pdTRUE;  // the stand-in's notified task always outranks the interrupted one
}

uint32_t ulTaskGenericNotifyTake(UBaseType_t, BaseType_t clear, TickType_t) {
    if (this_task == nullptr) std::abort();
    // relaxed: a counter; never blocks (the test calls it when it knows).
    const std::uint32_t n = this_task->notified.load(std::memory_order_relaxed);
    if (n != 0) {
        // relaxed: as above.
        if (clear) this_task->notified.store(0, std::memory_order_relaxed);
        else this_task->notified.fetch_sub(1, std::memory_order_relaxed);
    }
    return n;
}

int64_t esp_timer_get_time(void) {
    // relaxed: see clock_us.
    return clock_us.load(std::memory_order_relaxed);
}

esp_err_t esp_timer_create(const esp_timer_create_args_t* args, esp_timer_handle_t* out) {
    if (args == nullptr || args->callback == nullptr || out == nullptr) return ESP_ERR_INVALID_ARG;
    for (esp_timer& t : timers) {
        if (!t.in_use) {
            t = esp_timer{};
            t.in_use = true;
            t.cb = args->callback;
            t.arg = args->arg;
            dispatch_seen = args->dispatch_method;
            // relaxed: a statistic.
            the_counts.timers_created.fetch_add(1, std::memory_order_relaxed);
            *out = &t;
            return ESP_OK;
        }
    }
    return ESP_ERR_NO_MEM;
}

static esp_err_t start(esp_timer_handle_t t, std::uint64_t us, bool periodic) {
    if (t == nullptr || !t->in_use || us == 0) return ESP_ERR_INVALID_ARG;
    if (t->armed) return ESP_ERR_INVALID_STATE;  // as ESP-IDF: stop first
    t->armed = true;
    t->period = periodic ? us : 0;
    t->due = esp_timer_get_time() + static_cast<std::int64_t>(us);
    return ESP_OK;
}
esp_err_t esp_timer_start_once(esp_timer_handle_t t, uint64_t us) { return start(t, us, false); }
esp_err_t esp_timer_start_periodic(esp_timer_handle_t t, uint64_t us) { return start(t, us, true); }

esp_err_t esp_timer_stop(esp_timer_handle_t t) {
    if (t == nullptr || !t->in_use) return ESP_ERR_INVALID_ARG;
    if (!t->armed) return ESP_ERR_INVALID_STATE;
    t->armed = false;
    return ESP_OK;
}

esp_err_t esp_timer_delete(esp_timer_handle_t t) {
    if (t == nullptr || !t->in_use) return ESP_ERR_INVALID_ARG;
    if (t->armed) return ESP_ERR_INVALID_STATE;  // as ESP-IDF: a running timer cannot be deleted
    t->in_use = false;
    // relaxed: a statistic.
    the_counts.timers_deleted.fetch_add(1, std::memory_order_relaxed);
    return ESP_OK;
}

int esp_rom_printf(const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    const int n = std::vprintf(fmt, ap);
    va_end(ap);
    return n;
}

void esp_system_abort(const char* details) {
    std::fprintf(stderr, "esp_system_abort: %s\n", details);
    std::abort();
}

}  // extern "C"

namespace esp32_stub {

void set_core(std::uint32_t id) { this_core = id; }
void set_in_isr(bool in_isr) { this_in_isr = in_isr; }
int masked_depth() { return this_masked; }
calls& counts() { return the_counts; }
void reset_counts() {
    for (auto* c : {&the_counts.enter_task, &the_counts.exit_task, &the_counts.enter_isr,
                    &the_counts.exit_isr, &the_counts.spin_waits, &the_counts.notify_task,
                    &the_counts.notify_isr, &the_counts.yield_from_isr,
                    &the_counts.yield_from_isr_true, &the_counts.timers_created,
                    &the_counts.timers_deleted}) {
        // relaxed: reset between tests, no thread running.
        c->store(0, std::memory_order_relaxed);
    }
}

std::int64_t now() { return esp_timer_get_time(); }

void advance_to(std::int64_t target) {
    for (;;) {
        esp_timer* next = nullptr;
        for (esp_timer& t : timers) {
            if (t.in_use && t.armed && t.due <= target && (next == nullptr || t.due < next->due)) next = &t;
        }
        if (next == nullptr) break;
        // relaxed: see clock_us.
        clock_us.store(next->due, std::memory_order_relaxed);
        if (next->period != 0) {
            next->due += static_cast<std::int64_t>(next->period);
        } else {
            next->armed = false;
        }
        next->cb(next->arg);
    }
    // relaxed: see clock_us.
    clock_us.store(target, std::memory_order_relaxed);
}

esp_timer_dispatch_t last_dispatch() { return dispatch_seen; }

int live_timers() {
    int n = 0;
    for (const esp_timer& t : timers) n += t.in_use ? 1 : 0;
    return n;
}

TaskHandle_t make_task() { return &tasks.emplace_back(); }
void set_current_task(TaskHandle_t t) { this_task = t; }

}  // namespace esp32_stub

// SPDX-License-Identifier: MIT
// Schedule.h (kairos ESP8266 compatibility): the ESP8266 core's scheduled
// functions on top of kairos::deferred.
//
// Same names and meaning as cores/esp8266/Schedule.h, minus its defects:
// schedule_function() is lock-free and allocates nothing for callables that
// fit a slot (lambdas capturing up to four words, function pointers, small
// std::function objects), recurrent periods are 64-bit (no silent never-fire
// above 26.8 s), and a full queue is counted (scheduled_function_overflows()).
//
// Configuration (define identically in every translation unit, e.g. with -D):
//   SCHEDULED_FN_MAX_COUNT            one-shot capacity (default 32; rounded
//                                     up to a power of two, at least 2)
//   SCHEDULED_RECURRENT_FN_MAX_COUNT  recurrent capacity (default 32; the
//                                     ESP8266 list was unbounded, on the heap)
//
//                                     These sizes are compiled into
//                                     Schedule.cpp too: a unit whose sizes
//                                     differ from its Schedule.cpp's fails to
//                                     link, naming the symbol
//                                     kairos_esp8266_schedule_fn<N>_rec<M>.
//
// A callable too large for a slot is converted to std::function first, as
// the ESP8266 core does for every callable: that conversion may allocate, so
// do it from task context (the native kairos::deferred refuses such
// callables at compile time instead).
//
// Drop-in for the core: the functions the core's Schedule.h declares
// (schedule_function and schedule_recurrent_function_us with std::function
// arguments, run_scheduled_functions, run_scheduled_recurrent_functions,
// compute_scheduled_recurrent_grain) and the other non-template functions
// below are real functions defined in Schedule.cpp (src/compat/esp8266/), so
// an object compiled against the core's own header links against it; the
// templates beside them are the allocation-free fast path for callables
// that fit a slot (docs/esp8266-compat.md, "Installing into the core").
#pragma once

#include <kairos/bits.hpp>
#include <kairos/deferred.hpp>

#include <cstdint>
#include <functional>
#include <type_traits>
#include <utility>

#ifndef SCHEDULED_FN_MAX_COUNT
#define SCHEDULED_FN_MAX_COUNT 32
#endif
#ifndef SCHEDULED_RECURRENT_FN_MAX_COUNT
#define SCHEDULED_RECURRENT_FN_MAX_COUNT 32
#endif

namespace kairos::esp8266_compat {

// round_up_pow2(n) is the ring size for n slots: a power of two, at least 2.
constexpr std::size_t round_up_pow2(std::size_t n) noexcept {
    std::size_t p = 2;
    while (p < n) p <<= 1;
    return p;
}

// fn_size holds a std::function on every ABI, so any callable fits after
// the std::function fallback below.
inline constexpr std::size_t fn_size = sizeof(std::function<bool()>) > default_inplace_size
                                           ? sizeof(std::function<bool()>)
                                           : default_inplace_size;

static_assert(SCHEDULED_FN_MAX_COUNT >= 1, "SCHEDULED_FN_MAX_COUNT must be at least 1");

using scheduler = kairos::deferred<round_up_pow2(SCHEDULED_FN_MAX_COUNT),
                                   SCHEDULED_RECURRENT_FN_MAX_COUNT, fn_size>;

// global_scheduler is the one instance behind the free functions, built
// during static initialization (before main(), so before any ISR or signal
// handler can reach it).
inline scheduler global_scheduler;

}  // namespace kairos::esp8266_compat

// KAIROS_ESP8266_SCHEDULE_CONFIG_SYMBOL names the capacities above;
// Schedule.cpp defines it, and every unit that includes this header refers
// to the one its own capacities spell (the scheme of
// KAIROS_KERNEL_CONFIG_SYMBOL, kernel/config.hpp, without the ELF note:
// this header is never freestanding, one pointer is its whole cost).
#define KAIROS_ESP8266_SCHEDULE_CONFIG_NAME_(n, m) kairos_esp8266_schedule_fn##n##_rec##m
#define KAIROS_ESP8266_SCHEDULE_CONFIG_NAME(n, m) KAIROS_ESP8266_SCHEDULE_CONFIG_NAME_(n, m)
#define KAIROS_ESP8266_SCHEDULE_CONFIG_SYMBOL \
    KAIROS_ESP8266_SCHEDULE_CONFIG_NAME(SCHEDULED_FN_MAX_COUNT, SCHEDULED_RECURRENT_FN_MAX_COUNT)
extern "C" const char KAIROS_ESP8266_SCHEDULE_CONFIG_SYMBOL;

namespace kairos::esp8266_compat {

[[gnu::used]] inline const char* const schedule_config_check = &KAIROS_ESP8266_SCHEDULE_CONFIG_SYMBOL;

template <class D>
inline constexpr bool fits_slot = sizeof(D) <= fn_size && alignof(D) <= default_inplace_align &&
                                  std::is_nothrow_move_constructible_v<D>;

// as_stored<Sig>(f) passes f through when it fits a slot, else wraps it in
// std::function<Sig> (heap, as on the ESP8266).
template <class Sig, class F>
decltype(auto) as_stored(F&& f) {
    if constexpr (fits_slot<std::decay_t<F>>) {
        return std::forward<F>(f);
    } else {
        return std::function<Sig>(std::forward<F>(f));
    }
}

}  // namespace kairos::esp8266_compat

// schedule_function(fn) queues fn to run once after the current loop()
// (run_scheduled_functions()); a result fn returns is discarded. Context:
// any, including ISRs and signal handlers. False if fn is empty or
// SCHEDULED_FN_MAX_COUNT functions are already pending.
template <class F, class = std::enable_if_t<std::is_invocable_v<std::decay_t<F>&>>>
inline bool schedule_function(F&& fn) {
    return kairos::esp8266_compat::global_scheduler.schedule(
        kairos::esp8266_compat::as_stored<void()>(std::forward<F>(fn)));
}
// schedule_function(std::function) is the upstream signature, a real
// function (Schedule.cpp, in IRAM): it takes what only converts to
// std::function<void()>, such as {}, NULL and nullptr (all empty: false).
// Context: any; copying fn may allocate, as upstream.
KAIROS_ISR_FN bool schedule_function(const std::function<void()>& fn);

namespace kairos::esp8266_compat {

// is_null_literal<F>: F is what NULL or {} becomes when passed for a
// callable (GCC's NULL is an integer; {} takes the default nullptr_t).
template <class F>
inline constexpr bool is_null_literal =
    std::is_same_v<std::decay_t<F>, std::nullptr_t> || std::is_integral_v<std::decay_t<F>>;

}  // namespace kairos::esp8266_compat

// schedule_recurrent_function_us(fn, repeat_us, alarm) runs fn (returning
// bool; false removes it) about every repeat_us µs; alarm() returning true
// runs it at the next pass regardless. Missed periods are skipped. False if
// fn is empty (nullptr, NULL, {}, an empty std::function) or the recurrent
// pool is full. Context: any, as upstream (a Ticker callback may register):
// lock-free and allocation-free for callables that fit a slot; a larger
// callable is converted to std::function here, which allocates, so pass
// those from task context only.
//
// The upstream signature, with std::function arguments, is a real function
// too (Schedule.cpp, in IRAM); the template takes every other callable.
KAIROS_ISR_FN bool schedule_recurrent_function_us(const std::function<bool()>& fn,
                                                  std::uint32_t repeat_us,
                                                  const std::function<bool()>& alarm = nullptr);

template <class F = std::nullptr_t, class A = std::nullptr_t>
inline bool schedule_recurrent_function_us(F&& fn, std::uint32_t repeat_us, A&& alarm = nullptr) {
    using kairos::esp8266_compat::as_stored;
    using kairos::esp8266_compat::is_null_literal;
    auto& sched = kairos::esp8266_compat::global_scheduler;
    if constexpr (is_null_literal<F>) {
        if constexpr (std::is_integral_v<std::decay_t<F>>) {
            KAIROS_ASSERT(fn == 0);  // only NULL stands for "no function"
        }
        return false;
    } else if constexpr (is_null_literal<A>) {
        if constexpr (std::is_integral_v<std::decay_t<A>>) {
            KAIROS_ASSERT(alarm == 0);  // only NULL stands for "no alarm"
        }
        return static_cast<bool>(
            sched.schedule_recurrent(as_stored<bool()>(std::forward<F>(fn)), repeat_us));
    } else {
        return static_cast<bool>(sched.schedule_recurrent(as_stored<bool()>(std::forward<F>(fn)),
                                                          repeat_us,
                                                          as_stored<bool()>(std::forward<A>(alarm))));
    }
}

// compute_scheduled_recurrent_grain() is upstream's delay() chunk in ms: the
// greatest common divisor of the registered recurrent periods, rounded up to
// whole milliseconds (1 for a divisor up to 1 ms), 0 if nothing is
// registered or every period is 0; saturates at 2^32 - 1 ms. Context: task.
std::uint32_t compute_scheduled_recurrent_grain();

// run_scheduled_functions() runs the one-shot functions queued before it was
// called (FIFO). The ESP8266 core calls it after every loop(). Context: task.
void run_scheduled_functions();

// run_scheduled_recurrent_functions() runs the recurrent functions that are
// due or alarmed. The ESP8266 core calls it after loop() and in yield()/
// delay(). A nested call returns at once. Context: task.
void run_scheduled_recurrent_functions();

// get_scheduled_recurrent_delay_us() is the number of µs until the next
// recurrent function is due (0: due now; ~0u: none registered, or further
// than 71 minutes away). Context: task.
std::uint32_t get_scheduled_recurrent_delay_us();

// get_scheduled_delay_us() is 0 while one-shot functions are pending, else
// get_scheduled_recurrent_delay_us().
std::uint32_t get_scheduled_delay_us();

// scheduled_function_overflows() counts schedule_function() calls refused
// because the queue was full (the ESP8266 core loses these silently).
std::uint32_t scheduled_function_overflows();

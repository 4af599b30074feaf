// SPDX-License-Identifier: MIT
// Schedule.cpp (kairos ESP8266 compatibility): the non-template functions of
// Schedule.h, so the pair can replace the core's Schedule.h/Schedule.cpp and
// objects compiled against the core's own header link here. The capacities
// (SCHEDULED_FN_MAX_COUNT, SCHEDULED_RECURRENT_FN_MAX_COUNT) must be the
// ones every other unit uses; the symbol defined first records them.
#include "Schedule.h"  // beside this file in a core, else kairos::esp8266_compat's include path

#include <kairos/bits.hpp>

#include <cstdint>
#include <functional>

extern "C" const char KAIROS_ESP8266_SCHEDULE_CONFIG_SYMBOL = 0;

namespace {

using kairos::esp8266_compat::global_scheduler;

// saturate_u32(v) is v, or 2^32 - 1 when v does not fit 32 bits.
std::uint32_t saturate_u32(std::uint64_t v) {
    return v > 0xFFFFFFFFu ? 0xFFFFFFFFu : static_cast<std::uint32_t>(v);
}

}  // namespace

// The two ISR-callable functions take their IRAM section from their
// declarations in Schedule.h (KAIROS_ISR_FN there): repeating the macro
// here would name a second section (each use has its own, __COUNTER__),
// which GCC refuses as a conflict.
bool schedule_function(const std::function<void()>& fn) {
    return global_scheduler.schedule(fn);
}

bool schedule_recurrent_function_us(const std::function<bool()>& fn, std::uint32_t repeat_us,
                                    const std::function<bool()>& alarm) {
    if (!fn) return false;
    if (!alarm) return static_cast<bool>(global_scheduler.schedule_recurrent(fn, repeat_us));
    return static_cast<bool>(global_scheduler.schedule_recurrent(fn, repeat_us, alarm));
}

std::uint32_t compute_scheduled_recurrent_grain() {
    const std::uint64_t us = global_scheduler.recurrent_grain_us();
    if (us == 0) return 0;
    if (us <= 1000) return 1;
    return saturate_u32(kairos::div_u64<1000>(us + 999));  // no 64-bit division call
}

void run_scheduled_functions() { global_scheduler.run(); }

void run_scheduled_recurrent_functions() { global_scheduler.run_recurrent(); }

std::uint32_t get_scheduled_recurrent_delay_us() {
    return saturate_u32(global_scheduler.recurrent_delay_us());
}

std::uint32_t get_scheduled_delay_us() { return saturate_u32(global_scheduler.delay_us()); }

std::uint32_t scheduled_function_overflows() { return global_scheduler.overflows(); }

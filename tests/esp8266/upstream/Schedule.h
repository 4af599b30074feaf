// SPDX-License-Identifier: MIT
// The declarations of the ESP8266 core's cores/esp8266/Schedule.h (core
// 3.x), written for this test and nothing else: no kairos header, no inline
// definition. dropin_caller.cpp is compiled against it, as a core library's
// object would be, and must link against kairos's Schedule.cpp.
#ifndef ESP_SCHEDULE_H
#define ESP_SCHEDULE_H

#include <functional>
#include <stdint.h>

#define SCHEDULED_FN_MAX_COUNT 32

bool schedule_function(const std::function<void(void)>& fn);
void run_scheduled_functions();
bool schedule_recurrent_function_us(const std::function<bool(void)>& fn, uint32_t repeat_us,
                                    const std::function<bool(void)>& alarm = nullptr);
void run_scheduled_recurrent_functions();
uint32_t compute_scheduled_recurrent_grain();

#endif  // ESP_SCHEDULE_H

/* SPDX-License-Identifier: MIT */
/* Stand-in for ESP-IDF's esp_system.h (tests/framework/esp32_stub): the
 * abort, here a host abort() after printing details. */
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

void __attribute__((noreturn)) esp_system_abort(const char* details);

#ifdef __cplusplus
}
#endif

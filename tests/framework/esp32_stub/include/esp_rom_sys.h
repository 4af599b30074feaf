/* SPDX-License-Identifier: MIT */
/* Stand-in for ESP-IDF's esp_rom_sys.h (tests/framework/esp32_stub): the
 * ROM printf, here to stdout. */
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

int esp_rom_printf(const char* fmt, ...);

#ifdef __cplusplus
}
#endif

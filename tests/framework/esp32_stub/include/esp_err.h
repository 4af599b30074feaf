/* SPDX-License-Identifier: MIT */
/* Stand-in for ESP-IDF's esp_err.h (tests/framework/esp32_stub): the error
 * type and the codes port/framework_esp32 sees, with ESP-IDF's values. */
#pragma once

#include <stdint.h>

typedef int esp_err_t;

#define ESP_OK 0
#define ESP_FAIL (-1)
#define ESP_ERR_NO_MEM 0x101
#define ESP_ERR_INVALID_ARG 0x102
#define ESP_ERR_INVALID_STATE 0x103

/* SPDX-License-Identifier: MIT */
/* Stand-in for ESP-IDF's esp_attr.h (tests/framework/esp32_stub): the
 * placement attributes, empty on the host (ESP-IDF puts IRAM_ATTR code in
 * .iram1 and DRAM_ATTR data in .dram1, both internal RAM). */
#pragma once

#define IRAM_ATTR
#define DRAM_ATTR

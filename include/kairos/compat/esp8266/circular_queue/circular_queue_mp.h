// SPDX-License-Identifier: MIT
// circular_queue/circular_queue_mp.h (kairos::esp8266_compat): the ESP8266
// core's and older EspSoftwareSerial's include path for circular_queue_mp.h.
#pragma once

#include "../circular_queue_mp.h"

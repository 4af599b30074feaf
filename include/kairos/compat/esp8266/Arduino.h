// SPDX-License-Identifier: MIT
// Arduino.h (kairos ESP8266 compatibility, hosts): the few Arduino core
// functions that Schedule/PolledTimeout/Ticker sketches call, so sketch-style
// code builds and runs on a host. Not a general Arduino emulation: no Serial,
// String, GPIO.
//
//   millis(), micros()   32-bit, wrapping like the ESP8266 counters
//   yield()              runs the recurrent scheduled functions, as the
//                        ESP8266 core's yield() does from the loop task
//   delay(ms)            waits, running recurrent functions meanwhile, and
//                        sleeps (instead of spinning) until the next one is due
//   IRAM_ATTR, ICACHE_RAM_ATTR   accepted, mapped to KAIROS_ISR_FN
#pragma once

#include "Schedule.h"

#include <kairos/config.hpp>
#include <kairos/bits.hpp>
#include <kairos/port.hpp>

#include <cstdint>
#if defined(__unix__) || defined(__APPLE__)
#include <time.h>
#endif

#ifndef IRAM_ATTR
#define IRAM_ATTR KAIROS_ISR_FN
#endif
#ifndef ICACHE_RAM_ATTR
#define ICACHE_RAM_ATTR KAIROS_ISR_FN
#endif

inline std::uint32_t millis() { return static_cast<std::uint32_t>(kairos::div_u64<1000>(kairos::port::now_us())); }
inline std::uint32_t micros() { return static_cast<std::uint32_t>(kairos::port::now_us()); }

inline void yield() { run_scheduled_recurrent_functions(); }

inline void delay(unsigned long ms) {
    const std::uint64_t end = kairos::port::now_us() + std::uint64_t{ms} * 1000u;
    for (;;) {
        run_scheduled_recurrent_functions();
        const std::uint64_t now = kairos::port::now_us();
        if (!kairos::time_before(now, end)) return;
        std::uint64_t wait = end - now;
        const std::uint64_t next = kairos::esp8266_compat::global_scheduler.recurrent_delay_us();
        if (next < wait) wait = next;
#if defined(__unix__) || defined(__APPLE__)
        if (wait > 0) {
            timespec ts{static_cast<time_t>(wait / 1000000u),
                        static_cast<long>(wait % 1000000u) * 1000};
            nanosleep(&ts, nullptr);
        }
#endif
    }
}

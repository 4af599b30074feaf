// SPDX-License-Identifier: MIT
// Arduino.h of the ESP8266 stand-in core (tests/arduino): NOT the ESP8266
// Arduino core. It declares, as that core does, the part of its API that
// kairos' framework port (port/framework_esp8266) and the library examples
// use, so CI can build them with arduino-builder and run them under QEMU
// (`-M sim -cpu lx106`). What each function does here is a model of the
// core's behaviour, written for that test only (standin_lx106.cpp).
#pragma once

#include <stddef.h>
#include <stdint.h>

#define __STRINGIFY(a) #a
// The core's masks (Arduino.h): rsil returns the whole previous PS.
#define xt_rsil(level) \
    (__extension__({ uint32_t state; __asm__ __volatile__("rsil %0," __STRINGIFY(level) : "=a"(state)::"memory"); state; }))
#define xt_wsr_ps(state) __asm__ __volatile__("wsr %0,ps; isync" ::"a"(state) : "memory")
#define interrupts() xt_rsil(0)
#define noInterrupts() xt_rsil(15)

// The core places interrupt code in IRAM (here: one section, see lx106.ld).
#define IRAM_ATTR __attribute__((section(".iram.text")))
#define ICACHE_RAM_ATTR IRAM_ATTR

// timer1 (core_esp8266_timer.cpp): dividers and modes as in the core.
#define TIM_DIV1 0
#define TIM_DIV16 1
#define TIM_DIV256 3
#define TIM_EDGE 0
#define TIM_LEVEL 1
#define TIM_SINGLE 0
#define TIM_LOOP 1

#ifdef __cplusplus
extern "C" {
#endif
typedef void (*timercallback)(void);

unsigned long millis(void);
unsigned long micros(void);
uint64_t micros64(void);
void delay(unsigned long ms);
void yield(void);
void esp_schedule(void);
int ets_printf(const char* format, ...);
void __panic_func(const char* file, int line, const char* func) __attribute__((noreturn));

// timer1 at 80 MHz / divider, as on the ESP8266; the stand-in fires it from
// its 1 ms tick, so its resolution is 1 ms.
void timer1_isr_init(void);
void timer1_attachInterrupt(timercallback userFunc);
void timer1_detachInterrupt(void);
void timer1_enable(uint8_t divider, uint8_t int_type, uint8_t reload);
void timer1_disable(void);
void timer1_write(uint32_t ticks);

void setup(void);
void loop(void);
#ifdef __cplusplus
}

#include "../../../../../standin/serial.hpp"
#endif

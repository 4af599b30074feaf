// SPDX-License-Identifier: MIT
// Arduino.h of the Cortex-M stand-in core (tests/arduino): not any vendor's
// Arduino core. The Arduino API subset the library examples use, on QEMU
// mps2-an385, for CI only (standin_arm.cpp).
#pragma once

#include <stddef.h>
#include <stdint.h>

#define interrupts() __asm__ __volatile__("cpsie i" ::: "memory")
#define noInterrupts() __asm__ __volatile__("cpsid i" ::: "memory")

#ifdef __cplusplus
extern "C" {
#endif
unsigned long millis(void);
unsigned long micros(void);
void delay(unsigned long ms);
void yield(void);
void setup(void);
void loop(void);
#ifdef __cplusplus
}

#include "../../../../../standin/serial.hpp"
#endif

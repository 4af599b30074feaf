// SPDX-License-Identifier: MIT
// RingFromIsr: a timer interrupt pushes a counter into a kairos SPSC ring;
// loop() pops and checks that every value arrives once and in order.
// On ESP8266 the interrupt is timer1 (the core's timer1_* API); elsewhere a
// kairos::ticker, which on the bare-metal Cortex-M port runs in SysTick.
// Prints "kairos: PASS" after 1000 values, "kairos: FAIL ..." otherwise.
#include <kairos.h>

#ifndef IRAM_ATTR
#  define IRAM_ATTR
#endif

constexpr uint32_t values = 1000;

kairos::spsc_ring<uint32_t, 16> ring;  // the ISR produces, loop() consumes
volatile uint32_t next_push = 0;       // the ISR's own counter
volatile uint32_t refused = 0;         // pushes refused (ring full)
uint32_t expected = 0;
bool done = false;

// on_timer() runs in interrupt context: no allocation, no lock, in IRAM.
IRAM_ATTR void on_timer() {
    for (int i = 0; i < 4 && next_push < values; ++i) {
        const uint32_t v = next_push;
        if (ring.try_push(v)) {
            next_push = v + 1;
        } else {
            refused = refused + 1;  // retried at the next interrupt
        }
    }
}

#if !defined(ARDUINO_ARCH_ESP8266)
kairos::ticker isr_ticker;
#endif

void setup() {
    Serial.begin(115200);
    Serial.println("RingFromIsr: start");
#if defined(ARDUINO_ARCH_ESP8266)
    timer1_attachInterrupt(on_timer);
    timer1_enable(TIM_DIV16, TIM_EDGE, TIM_LOOP);
    timer1_write(5000);  // 1 ms at 80 MHz / 16
#else
    isr_ticker.attach_ms(1, on_timer);
#endif
}

void loop() {
    if (done) return;
    uint32_t v;
    while (ring.try_pop(v)) {
        if (v != expected) {
            Serial.print("kairos: FAIL expected ");
            Serial.print(expected);
            Serial.print(" got ");
            Serial.println(v);
            done = true;
            return;
        }
        ++expected;
    }
    if (expected == values) {
#if defined(ARDUINO_ARCH_ESP8266)
        timer1_detachInterrupt();
#else
        isr_ticker.detach();
#endif
        done = true;
        Serial.print("RingFromIsr: ");
        Serial.print(expected);
        Serial.print(" values in order, ");
        Serial.print(refused);
        Serial.println(" pushes refused (ring full) and retried");
        Serial.println("kairos: PASS");
    }
}

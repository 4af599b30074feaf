// SPDX-License-Identifier: MIT
// DeferredTicker: a kairos::ticker schedules work every 10 ms into a
// kairos::deferred scheduler; loop() runs it (sched.run()). A recurrent
// function runs every 100 ms from the same run(). On the ESP8266 core the
// scheduler's wake hook is esp_schedule() (kairos::framework::wake), so a
// schedule() wakes the loop at once.
// Prints "kairos: PASS" after 50 deferred runs if the counts add up.
#include <kairos.h>

kairos::deferred<16, 2> sched;  // 16 one-shot slots, 2 recurrent entries
kairos::ticker work_ticker;

volatile uint32_t ticks = 0;     // ticker callbacks
volatile uint32_t refused = 0;   // schedule() refused (queue full)
uint32_t ran = 0;                // deferred functions run (loop context)
uint32_t recurrent_runs = 0;
uint32_t start_ms = 0;
bool done = false;

void setup() {
    Serial.begin(115200);
    Serial.println("DeferredTicker: start");
#if defined(ARDUINO_ARCH_ESP8266) 
    sched.set_wake_hook(kairos::framework::wake, nullptr);
#endif
    (void)sched.schedule_recurrent([] {
        ++recurrent_runs;
        return true;  // keep running
    }, 100000);
    start_ms = millis();
    // The ticker's callback may run in interrupt context: it only defers.
    work_ticker.attach_ms(10, [] {
        ticks = ticks + 1;
        if (!sched.schedule([] { ++ran; })) refused = refused + 1;
    });
}

void loop() {
    sched.run();
    sched.run_recurrent();
    if (done || ran < 50) return;
    work_ticker.detach();
    done = true;
    const uint32_t elapsed = millis() - start_ms;
    Serial.print("DeferredTicker: ");
    Serial.print(ran);
    Serial.print(" deferred runs, ");
    Serial.print(recurrent_runs);
    Serial.print(" recurrent runs in ");
    Serial.print(elapsed);
    Serial.println(" ms");
    // 50 periods of 10 ms: about 500 ms, so about 5 recurrent runs.
    const bool ok = refused == 0 && ran == 50 && elapsed >= 490 && elapsed <= 600 &&
                    recurrent_runs >= 4 && recurrent_runs <= 6;
    Serial.println(ok ? "kairos: PASS" : "kairos: FAIL counts or timing off");
}

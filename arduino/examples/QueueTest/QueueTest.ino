// SPDX-License-Identifier: MIT
// QueueTest: the ESP8266 core's scheduler stress test (esp8266/Arduino
// PR #6139) on kairos: a 1 ms ticker makes 30 attempts per tick to
// schedule a function carrying the next of 100 000 messages into a
// 32-slot kairos::deferred (the core's SCHEDULED_FN_MAX_COUNT); loop()
// runs them, and each checks its message as the original checkMessage()
// does (bad id, value in reverse, values skipped, bad last message). A
// refused push (queue full) is retried at the next attempt, as there.
// Prints "kairos: PASS" when all 100 000 arrived in order, once each.
#include <kairos.h>

constexpr unsigned long MSGCNT = 100000;
constexpr unsigned long MSGSPERTICKER = 30;

kairos::deferred<32, 2> sched;
kairos::ticker ticker;

volatile int pending = 1;
volatile unsigned long msgNo = 0;
unsigned long nextVal[] = {0};
unsigned long bad = 0, reversed = 0, lost = 0;
volatile unsigned long refused = 0;
uint32_t startMillis;

bool checkMessage(unsigned long msg) {
    const auto id = msg & 0x1f;
    const auto val = msg >> 5;
    if (id >= 1) {
        ++bad;
        return true;
    }
    if (val == MSGCNT - 1) {
        nextVal[id] = val;
        --pending;
        return false;
    }
    if (val != nextVal[id]) {
        if (val < nextVal[id]) {
            ++reversed;
        } else {
            lost += val - nextVal[id];
        }
    }
    nextVal[id] = val + 1;
    return true;
}

void tickerCallback() {
    for (unsigned long i = 0; i < MSGSPERTICKER; ++i) {
        if (msgNo >= MSGCNT) return;
        const unsigned long msg = (msgNo << 5) + 0;
        if (sched.schedule([msg] {
                if (!checkMessage(msg)) ticker.detach();
            })) {
            msgNo = msgNo + 1;
        } else {
            refused = refused + 1;
        }
    }
}

void setup() {
    Serial.begin(115200);
    Serial.println("scheduler test");
#if defined(ARDUINO_ARCH_ESP8266) 
    sched.set_wake_hook(kairos::framework::wake, nullptr);
#endif
    (void)sched.schedule_recurrent([] {
        Serial.println("scheduler alive");
        return true;
    }, 5000000);
    startMillis = millis();
    ticker.attach_ms(1, tickerCallback);
}

void loop() {
    sched.run();
    sched.run_recurrent();
    if (pending != 0) return;
    pending = -1;
    Serial.print("done after ");
    Serial.print(millis() - startMillis);
    Serial.print(" ms, ");
    Serial.print(refused);
    Serial.println(" pushes refused (queue full) and retried");
    const bool ok = nextVal[0] == MSGCNT - 1 && bad == 0 && reversed == 0 && lost == 0;
    if (!ok) {
        Serial.print("bad ids ");
        Serial.print(bad);
        Serial.print(", reversed ");
        Serial.print(reversed);
        Serial.print(", lost ");
        Serial.println(lost);
    }
    Serial.println(ok ? "kairos: PASS" : "kairos: FAIL messages lost or out of order");
}

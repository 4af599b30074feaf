// SPDX-License-Identifier: MIT
// An ESP8266-style sketch running on a Linux host, unchanged in shape:
// a Ticker interrupt (here a POSIX signal) schedules work with
// schedule_function(), the loop runs it with run_scheduled_functions(), a
// recurrent function reports progress, and a PolledTimeout paces the loop.
// Only the includes and main() differ from the firmware.
#include <Arduino.h>
#include <PolledTimeout.h>
#include <Schedule.h>
#include <Ticker.h>

#include <cstdio>

namespace {

constexpr unsigned long total = 2000;  // messages
constexpr int per_tick = 20;           // pushed per 1 ms tick

volatile unsigned long pushed = 0;  // written only by the ticker (signal context)
unsigned long received = 0, out_of_order = 0;
Ticker ticker;

// on_tick runs in signal context: schedule_function() is lock-free and
// allocation-free there; a refused push (queue full) is retried next tick.
void on_tick() {
    for (int i = 0; i < per_tick && pushed < total; ++i) {
        const unsigned long n = pushed;
        if (!schedule_function([n] {
                if (n != received) ++out_of_order;
                ++received;
            }))
            return;
        pushed = n + 1;
    }
}

}  // namespace

int main() {
    schedule_recurrent_function_us(
        [] {
            std::printf("  received %lu of %lu\n", received, total);
            return received < total;  // false: remove this function
        },
        250000);
    ticker.attach_ms(1, on_tick);

    esp8266::polledTimeout::periodicFastMs pace(1);
    esp8266::polledTimeout::oneShotMs give_up(10000);
    while (received < total && !give_up) {
        if (pace) {  // the sketch's loop(): at most once per millisecond
            run_scheduled_functions();
            run_scheduled_recurrent_functions();
        }
    }
    ticker.detach();
    std::printf("sketch: %lu received, %lu out of order, %u refused pushes (counted, retried)\n",
                received, out_of_order, scheduled_function_overflows());
    return received == total && out_of_order == 0 ? 0 : 1;
}

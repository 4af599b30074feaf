// SPDX-License-Identifier: MIT
// An object compiled against the core's Schedule.h declarations only
// (upstream/Schedule.h), as the core and its libraries are: it links to
// kairos's Schedule.cpp and behaves as upstream. Exit status 0 on success;
// each failed check prints its line.
#include "Schedule.h"

#include <cstdio>
#include <functional>

#ifdef KAIROS_ESP8266_SCHEDULE_CONFIG_SYMBOL
#  error "dropin_caller.cpp must see the upstream declarations, not kairos's Schedule.h"
#endif

namespace {

int failures = 0;

void check(bool ok, int line) {
    if (!ok) {
        std::printf("dropin_caller.cpp:%d: check failed\n", line);
        ++failures;
    }
}
#define CHECK(c) check((c), __LINE__)

}  // namespace

int main() {
    // One-shot functions run in FIFO order, once.
    int order = 0;
    int a = 0;
    int b = 0;
    CHECK(schedule_function([&] { a = ++order; }));
    const std::function<void()> fb = [&] { b = ++order; };
    CHECK(schedule_function(fb));
    CHECK(!schedule_function(nullptr));  // empty: refused
    run_scheduled_functions();
    CHECK(a == 1 && b == 2);
    run_scheduled_functions();
    CHECK(order == 2);

    // The queue holds SCHEDULED_FN_MAX_COUNT, then refuses.
    int accepted = 0;
    while (accepted <= SCHEDULED_FN_MAX_COUNT && schedule_function([] {})) ++accepted;
    CHECK(accepted == SCHEDULED_FN_MAX_COUNT);
    run_scheduled_functions();

    // Recurrent functions: the grain is the periods' divisor in ms; false
    // removes the function; an alarm that fires runs it at the next pass.
    CHECK(compute_scheduled_recurrent_grain() == 0);
    int runs = 0;
    CHECK(!schedule_recurrent_function_us(nullptr, 1000));
    CHECK(schedule_recurrent_function_us([&] { return ++runs < 2; }, 3'000'000,
                                         [] { return true; }));
    CHECK(schedule_recurrent_function_us([] { return true; }, 2'000'000));
    CHECK(compute_scheduled_recurrent_grain() == 1000);
    run_scheduled_recurrent_functions();
    CHECK(runs == 1);
    run_scheduled_recurrent_functions();
    CHECK(runs == 2);
    run_scheduled_recurrent_functions();
    CHECK(runs == 2);  // removed after returning false
    CHECK(compute_scheduled_recurrent_grain() == 2000);
    return failures == 0 ? 0 : 1;
}

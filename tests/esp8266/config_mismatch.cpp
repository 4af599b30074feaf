// SPDX-License-Identifier: MIT
// Built with SCHEDULED_FN_MAX_COUNT=8 against a Schedule.cpp built with the
// default 32: must fail to link (tests/esp8266/CMakeLists.txt).
#include <Schedule.h>

int main() { return schedule_function([] {}) ? 0 : 1; }

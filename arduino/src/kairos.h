// SPDX-License-Identifier: MIT
// kairos.h: the Arduino library's umbrella header. #include <kairos.h> in a
// sketch gives the rings, the deferred scheduler, tickers and polled
// timeouts (namespace kairos), and on a framework port the framework glue
// (kairos::framework::wake, the loop wake-up for the deferred scheduler).
// The ESP8266 compat headers (Schedule.h, Ticker.h, PolledTimeout.h) stay
// under kairos/compat/esp8266/ so they never shadow the core's own.
#pragma once

#include <kairos/circular_queue.hpp>
#include <kairos/deferred.hpp>
#include <kairos/mpsc_ring.hpp>
#include <kairos/polled_timeout.hpp>
#include <kairos/port.hpp>
#include <kairos/spsc_ring.hpp>
#include <kairos/spsc_slot_ring.hpp>
#include <kairos/ticker.hpp>
#include <kairos/time.hpp>

#if defined(ARDUINO_ARCH_ESP8266)
#  include "kairos_port/framework_esp8266/kairos_framework.hpp"
#endif

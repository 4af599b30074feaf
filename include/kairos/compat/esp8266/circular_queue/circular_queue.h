// circular_queue/circular_queue.h (kairos::esp8266_compat): lets code written
// for EspSoftwareSerial / ghostl keep `#include "circular_queue/circular_queue.h"`
// and the unqualified name circular_queue<T, ForEachArg>. The queue is
// kairos::circular_queue; what changed against the original is listed in
// kairos/circular_queue.hpp and docs/rings.md.
#pragma once

#include <kairos/circular_queue.hpp>

using kairos::circular_queue;

// circular_queue/circular_queue_mp.h (kairos::esp8266_compat): the
// unqualified circular_queue_mp<T, ForEachArg> (and circular_queue, which the
// original header also brought in) for code written against EspSoftwareSerial
// / ghostl. The queue is kairos::circular_queue_mp: lock-free producers that
// never re-enable interrupts and never strand an element.
#pragma once

#include "circular_queue.h"

using kairos::circular_queue_mp;

// SPDX-License-Identifier: MIT
// circular_queue_mp.h (kairos::esp8266_compat): the unqualified
// circular_queue_mp<T, ForEachArg> (and everything circular_queue.h gives,
// which the original header also brings in) under ghostl's top-level name.
// The queue is kairos::circular_queue_mp: lock-free producers that never
// re-enable interrupts and never strand an element.
#pragma once

#include "circular_queue.h"

using kairos::circular_queue_mp;

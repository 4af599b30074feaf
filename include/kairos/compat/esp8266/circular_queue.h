// SPDX-License-Identifier: MIT
// circular_queue.h (kairos::esp8266_compat): `#include <circular_queue.h>`,
// the name EspSoftwareSerial 8.x and ghostl use, gives what the original
// header gives: the unqualified circular_queue<T, ForEachArg>, Delegate,
// IRAM_ATTR (KAIROS_ISR_FN) and an unqualified min (std::min). The queue is
// kairos::circular_queue; what changed against the original is listed in
// kairos/circular_queue.hpp and docs/rings.md.
#pragma once

#include "Delegate.h"

#include <kairos/circular_queue.hpp>

#include <algorithm>

using std::min;
using kairos::circular_queue;

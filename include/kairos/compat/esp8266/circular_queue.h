// SPDX-License-Identifier: MIT
// circular_queue.h (kairos::esp8266_compat): `#include <circular_queue.h>`,
// the name EspSoftwareSerial 8.x and ghostl use, gives what the original
// header gives: the unqualified circular_queue<T, ForEachArg>, Delegate,
// IRAM_ATTR (KAIROS_ISR_FN) and an unqualified min (std::min; in a
// freestanding build without <algorithm>, an equivalent template). The queue is
// kairos::circular_queue; what changed against the original is listed in
// kairos/circular_queue.hpp and docs/rings.md.
#pragma once

#include "Delegate.h"

#include <kairos/circular_queue.hpp>

#if __STDC_HOSTED__
#include <algorithm>

using std::min;
#else
// min(a, b) is std::min where a freestanding build has no <algorithm>.
template <class T>
constexpr const T& min(const T& a, const T& b) {
    return b < a ? b : a;
}
#endif
using kairos::circular_queue;

// SPDX-License-Identifier: MIT
// Must NOT compile: a callable larger than the in-slot buffer is refused at
// compile time ("the callable is larger than the in-slot buffer"), never
// moved to the heap. Checked by ctest compile_fail.deferred_callable_too_big.
#include <kairos/deferred.hpp>

kairos::deferred<4> d;

bool too_big() {
    char big[256] = {};
    return d.schedule([big] { (void)big; });  // error here
}

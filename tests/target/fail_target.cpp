// SPDX-License-Identifier: MIT
// A scenario that fails on purpose. Registered with WILL_FAIL: it proves a
// failed check on target becomes a non-zero QEMU exit status and so a ctest
// failure (if it ever "passed", the harness would be blind).
#include "runner.hpp"

namespace {
void must_fail() {
    volatile int one = 1;  // volatile: the compiler cannot fold the check away
    KT_CHECK_EQ(one, 2);
}
}  // namespace

int main() {
    static const ktarget::test_case cases[] = {{"deliberate_failure", must_fail}};
    return ktarget::run(cases);
}

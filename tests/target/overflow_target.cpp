// Stack overflow detection on target: a thread clobbers the bottom of its own
// stack (where the kernel keeps its canary) and yields; the switch must stop
// with "stack overflow in thread 'victim'" through kairos_port_panic, i.e.
// exit status 97 (EXPECT_EXIT 97; the message is checked by the test's
// PASS_REGULAR_EXPRESSION).
#include "kernel_scenarios.hpp"
#include "target.hpp"

int main() {
    scenarios::kernel::stack_overflow_victim();
    return 0;  // not reached: the switch panics
}

// SPDX-License-Identifier: MIT
// Stack overflow detection on target; the kernel's overflow report must end
// the run through kairos_port_panic, i.e. exit status 97 (EXPECT_EXIT 97,
// message checked by EXPECT_OUTPUT).
//
// Without a hardware stack limit, a thread clobbers the bottom of its own
// stack (where the kernel keeps its canary) and yields: the switch finds
// the canary broken. On ARMv8-M mainline every thread runs with PSPLIM at
// its stack bottom (above the canary), so the thread really overflows, by
// recursion, and must be stopped by the stack-limit UsageFault (STKOF)
// before it writes below the limit; the port prints its "PSPLIM" line and
// then the kernel's report, both checked by the test.
#include "kernel_scenarios.hpp"
#include "target.hpp"

#if defined(__ARM_ARCH_8M_MAIN__)
namespace {

// descend(n) uses about 64 bytes of stack per level and only stops at
// depth 2^32: the stack-limit fault ends it long before. The volatile frame
// read after the call keeps every level's frame live (no tail call).
__attribute__((noinline)) unsigned descend(unsigned n) {
    volatile unsigned char frame[56];
    frame[n % sizeof frame] = static_cast<unsigned char>(n);
    if (n == ~0u) return frame[0];
    return descend(n + 1u) + frame[(n + 1u) % sizeof frame];
}

}  // namespace
#endif

int main() {
#if defined(__ARM_ARCH_8M_MAIN__)
    scenarios::kernel::begin();
    scenarios::kernel::spawn(5, [](void*) { (void)descend(0); }, nullptr, "victim");
    scenarios::kernel::finish();
#else
    scenarios::kernel::stack_overflow_victim();
#endif
    return 0;  // not reached: the switch (or the stack-limit fault) panics
}

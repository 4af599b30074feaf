// SPDX-License-Identifier: MIT
// A HardFault must reach the port's handler, which exits 98 (EXPECT_EXIT 98):
// `udf` is an undefined instruction; on ARMv7-M the UsageFault is disabled
// by default and escalates to HardFault, on ARMv6-M it is a HardFault.
#include "target.hpp"

int main() {
    asm volatile("udf #0");
    return 0;  // not reached
}

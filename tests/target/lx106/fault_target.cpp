// SPDX-License-Identifier: MIT
// An exception other than an interrupt must reach the startup's handler,
// which exits 98 like a Cortex-M HardFault (EXPECT_EXIT 98): `ill` is the
// architecturally illegal instruction (EXCCAUSE 0).
#include "target.hpp"

int main() {
    asm volatile("ill");
    return 0;  // not reached
}

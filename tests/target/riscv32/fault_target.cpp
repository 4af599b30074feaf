// SPDX-License-Identifier: MIT
// A synchronous exception must reach the board's handler, which exits 98
// like a Cortex-M HardFault (EXPECT_EXIT 98): `unimp` is the architecturally
// illegal instruction (mcause 2).
#include "target.hpp"

int main() {
    asm volatile("unimp");
    return 0;  // not reached
}

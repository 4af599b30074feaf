// SPDX-License-Identifier: MIT
// The board hooks of the QEMU lx106 `sim` machine (include/kairos/board.hpp):
// console and exit through QEMU's Xtensa simcall semihosting. simcall is an
// illegal instruction on an ESP8266 without a debugger, which is why it is
// here and not in the port.
#include <kairos/board.hpp>
#include <kairos/config.hpp>
#include <kairos/port.hpp>

namespace {

// simcall(op, a, b, c) is QEMU's Xtensa semihosting call: operation in a2,
// arguments in a3..a5; the result comes back in a2 and errno in a3, which
// therefore is an output too (otherwise the compiler assumes a3 survives).
int simcall(int op, int a, const void* b, int c) noexcept {
    register int a2 asm("a2") = op;
    register int a3 asm("a3") = a;
    register const void* a4 asm("a4") = b;
    register int a5 asm("a5") = c;
    asm volatile("simcall" : "+r"(a2), "+r"(a3) : "r"(a4), "r"(a5) : "memory");
    return a2;
}
constexpr int sys_exit = 1;
constexpr int sys_write = 4;

}  // namespace

KAIROS_ISR_FN void kairos::port::console_write(const char* s) noexcept {
    int n = 0;
    while (s[n] != '\0') ++n;
    simcall(sys_write, 1, s, n);
}

// kairos_port_exit(code): the simulator's exit (QEMU keeps the low 8 bits).
extern "C" KAIROS_ISR_FN void kairos_port_exit(int code) noexcept {
    simcall(sys_exit, code, nullptr, 0);
    for (;;) asm volatile("waiti 0");
}

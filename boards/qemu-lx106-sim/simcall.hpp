// SPDX-License-Identifier: MIT
// simcall(op, a, b, c): QEMU's Xtensa semihosting call, for the QEMU lx106
// `sim` board (semihosting.cpp) and the Arduino stand-in core
// (tests/arduino). Operation in a2, arguments in a3..a5; the result comes
// back in a2 and errno in a3, which therefore is an output too (otherwise
// the compiler assumes a3 survives). simcall is an illegal instruction on an
// ESP8266 without a debugger: board and test code only, never a port.
#pragma once

namespace kairos::qemu_lx106 {

inline int simcall(int op, int a, const void* b, int c) noexcept {
    register int a2 asm("a2") = op;
    register int a3 asm("a3") = a;
    register const void* a4 asm("a4") = b;
    register int a5 asm("a5") = c;
    asm volatile("simcall" : "+r"(a2), "+r"(a3) : "r"(a4), "r"(a5) : "memory");
    return a2;
}
constexpr int sys_exit = 1;
constexpr int sys_write = 4;

// write(s) writes the NUL-terminated s to the simulator's stdout.
inline void write(const char* s) noexcept {
    int n = 0;
    while (s[n] != '\0') ++n;
    simcall(sys_write, 1, s, n);
}

// exit(code) ends the simulation with status code (QEMU keeps the low 8
// bits).
[[noreturn]] inline void exit(int code) noexcept {
    simcall(sys_exit, code, nullptr, 0);
    for (;;) asm volatile("waiti 0");
}

}  // namespace kairos::qemu_lx106

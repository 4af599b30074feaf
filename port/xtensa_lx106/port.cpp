// Xtensa lx106 (ESP8266) port: interrupt lock on PS.INTLEVEL (rsil/wsr),
// ISR detection, CCOUNT time base, console and exit through QEMU's simcall
// semihosting (panic: port/mcu_common/panic.cpp).
#include "lx106.hpp"

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

std::uint32_t ccount_high = 0;  // wraps of CCOUNT seen by cycles()
std::uint32_t ccount_last = 0;

}  // namespace

namespace kairos::port {

// PS.INTLEVEL 15 masks every maskable interrupt (as the ESP8266 Arduino
// core's noInterrupts() does); rsil returns the whole previous PS, and
// irq_restore() writes it back, so an already masked caller stays masked.
irq_state irq_disable() noexcept {
    irq_state ps;
    asm volatile("rsil %0, 15" : "=r"(ps)::"memory");
    return ps;
}

void irq_restore(irq_state ps) noexcept { asm volatile("wsr %0, ps\n\trsync" ::"r"(ps) : "memory"); }

// PS.EXCM is set by the hardware on taking any exception or level-1
// interrupt and stays set in the handler until it returns (rfe).
bool in_isr() noexcept {
    std::uint32_t ps;
    asm volatile("rsr %0, ps" : "=r"(ps));
    return (ps & (1u << 4)) != 0;
}

std::uint64_t now_us() noexcept {
    // A 64-bit division by a constant: __udivdi3 from divide.cpp.
    constexpr std::uint32_t mhz = lx106::cpu_hz / 1000000u;
    return lx106::cycles() / mhz;
}

void console_write(const char* s) noexcept {
    int n = 0;
    while (s[n] != '\0') ++n;
    simcall(sys_write, 1, s, n);
}

}  // namespace kairos::port

std::uint64_t kairos::lx106::cycles() noexcept {
    const port::irq_state s = port::irq_disable();
    const std::uint32_t c = ccount();
    if (c < ccount_last) ++ccount_high;
    ccount_last = c;
    const std::uint64_t r = (std::uint64_t{ccount_high} << 32) | c;
    port::irq_restore(s);
    return r;
}

extern "C" {

void kairos_port_exit(int code) noexcept {
    simcall(sys_exit, code, nullptr, 0);
    for (;;) asm volatile("waiti 0");
}

}  // extern "C"

// target.hpp: what the on-target tests and benchmarks need from the board
// beyond port.hpp: the exit used to report a result to ctest, and printing of
// numbers without a C library (and without run-time division, which lx106's
// libgcc lacks).
#pragma once

#include <kairos/port.hpp>

#include <cstdint>

extern "C" {
// kairos_port_exit(code) ends the program with exit status `code` (QEMU
// semihosting). Defined by the Cortex-M and lx106 ports.
[[noreturn]] void kairos_port_exit(int code) noexcept;
}

namespace ktarget {

// periodic_irq_start(period_us, fn) makes a timer interrupt call fn() every
// period_us microseconds (Cortex-M: SysTick through the port's tick hook);
// periodic_irq_stop() stops calling fn. Defined by the board's startup.
void periodic_irq_start(std::uint32_t period_us, void (*fn)()) noexcept;
void periodic_irq_stop() noexcept;

inline void print(const char* s) noexcept { kairos::port::console_write(s); }

// print_u64(v) prints v in decimal, by subtracting powers of ten (no
// division: lx106's libgcc has no __udivdi3).
inline void print_u64(std::uint64_t v) noexcept {
    static constexpr std::uint64_t pow10[20] = {
        10000000000000000000ull, 1000000000000000000ull, 100000000000000000ull,
        10000000000000000ull,    1000000000000000ull,    100000000000000ull,
        10000000000000ull,       1000000000000ull,       100000000000ull,
        10000000000ull,          1000000000ull,          100000000ull,
        10000000ull,             1000000ull,             100000ull,
        10000ull,                1000ull,                100ull,
        10ull,                   1ull};
    char buf[21];
    char* p = buf;
    for (const std::uint64_t w : pow10) {
        char d = '0';
        while (v >= w) {
            v -= w;
            ++d;
        }
        if (d != '0' || p != buf || w == 1) *p++ = d;
    }
    *p = '\0';
    print(buf);
}

}  // namespace ktarget

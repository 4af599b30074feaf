// Xtensa lx106 (ESP8266) specifics of the port beyond port.hpp: the exit
// used by tests under QEMU, the cycle counter. Firmware and tests may
// include this; the portable core never does.
#pragma once

#include <cstdint>

#ifndef KAIROS_CPU_HZ
#  error "KAIROS_CPU_HZ (CCOUNT rate in Hz) must be defined; port/xtensa_lx106/port.cmake sets it"
#endif

namespace kairos::lx106 {

// CCOUNT rate: the core clock (80 MHz on an ESP8266; the QEMU sim machine's
// lx106 model counts at its own configured rate, see port.cmake).
inline constexpr std::uint32_t cpu_hz = KAIROS_CPU_HZ;
static_assert(cpu_hz % 1000000u == 0, "KAIROS_CPU_HZ must be a whole number of MHz for now_us()");

// ccount() reads the 32-bit cycle counter (special register CCOUNT).
inline std::uint32_t ccount() noexcept {
    std::uint32_t c;
    asm volatile("rsr %0, ccount" : "=r"(c));
    return c;
}

// cycles() returns CCOUNT extended to 64 bits. It must be called at least
// once per 2^32 cycles (53 s at 80 MHz) to see every wrap. Context: any.
std::uint64_t cycles() noexcept;

}  // namespace kairos::lx106

extern "C" {
// kairos_port_exit(code) ends the program with exit status `code` through
// the simulator call (QEMU keeps the low 8 bits). Context: any.
[[noreturn]] void kairos_port_exit(int code) noexcept;
}

// SPDX-License-Identifier: MIT
// The tests' reference clock (ktarget::reference_ns(), tests/target/
// target.hpp) on the virt machine's Goldfish RTC (0x101000, QEMU
// hw/rtc/goldfish_rtc.c): nanoseconds, 64 bits, TIME_LOW read first
// (latching TIME_HIGH). It follows the clock `-rtc clock=` names, which the
// board's QEMU command sets to vm (QEMU's virtual clock); the port's time
// base is the CLINT's mtime, which the RTC does not involve.
#include "target.hpp"

#include <cstdint>

bool ktarget::reference_ns(std::uint64_t& ns) noexcept {
    volatile std::uint32_t* const rtc = reinterpret_cast<volatile std::uint32_t*>(0x101000);
    const std::uint32_t lo = rtc[0];
    const std::uint32_t hi = rtc[1];
    ns = (std::uint64_t{hi} << 32) | lo;
    return true;
}

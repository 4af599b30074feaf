// SPDX-License-Identifier: MIT
// core_clock: the MCU ports' run-time core clock behind port::set_cpu_hz()
// and port::cpu_hz() (include/kairos/board.hpp): the rate in Hz and, for
// now_us(), the rate in MHz as a prepared divisor. Shared by cortex_m and
// xtensa_lx106.
#pragma once

#include <kairos/bits.hpp>
#include <kairos/config.hpp>
#include <kairos/port.hpp>

#include <cstdint>

// KAIROS_TICKLESS (the CMake option of that name): 1 when the MCU ports stop
// their periodic tick while the kernel idles (docs/kernel.md, "Tickless
// idle"); builds without CMake get the default.
#ifndef KAIROS_TICKLESS
#  define KAIROS_TICKLESS 1
#endif

namespace kairos::mcu {

struct core_clock {
    std::uint32_t hz = 0;  // 0: not set
    divider16 mhz{};
    std::uint32_t per_us = 0;  // timer ticks per µs (the rate in MHz)

    // set(rate, tick_started) is set_cpu_hz(): panics on a rate that is not
    // a whole number of MHz in [1, 65535] or once the tick runs.
    void set(std::uint32_t rate, bool tick_started) noexcept {
        if (rate < 1000000u || rate % 1000000u != 0 || rate / 1000000u > 0xFFFFu) {
            kairos_port_panic("set_cpu_hz: not a whole number of MHz in [1, 65535]", KAIROS_FILE, __LINE__);
        }
        if (tick_started) kairos_port_panic("set_cpu_hz after the tick started", KAIROS_FILE, __LINE__);
        hz = rate;
        per_us = rate / 1000000u;
        mhz = make_divider16(per_us);
    }

    // require() is called where the tick starts: no silent default rate.
    void require() const noexcept {
        if (hz == 0) kairos_port_panic("core clock not set: call kairos::port::set_cpu_hz() first", KAIROS_FILE, __LINE__);
    }
};

// to_ticks(us, per_us) is a now_us() time in timer ticks (per_us: the rate
// in MHz, at most 65535), UINT64_MAX (none) for times beyond 2^48 µs,
// which would overflow. No division.
constexpr std::uint64_t to_ticks(std::uint64_t us, std::uint32_t per_us) noexcept {
    return (us >> 48) != 0 ? UINT64_MAX : us * per_us;
}

}  // namespace kairos::mcu

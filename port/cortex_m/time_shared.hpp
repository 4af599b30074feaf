// SPDX-License-Identifier: MIT
// What the Cortex-M port's two time bases share, internal to the port:
// port.cpp keeps time on SysTick; board_timer.cpp on the board timer
// (kairos/board.hpp, "Board timer"), and its strong definitions of the
// time functions replace port.cpp's weak SysTick ones when a board timer
// is linked (--gc-sections then drops the SysTick ones).
#pragma once

#include "cortex_m.hpp"

#include "../mcu_common/core_clock.hpp"

#include <kairos/detail/time_slice_hook.hpp>

#include <cstdint>

namespace kairos::cortex_m {

// idle_program(deadline) programs the core timer so that the kernel's idle
// wait ends at the deadline (SysTick: as close as its 24-bit reload allows),
// unless the periodic tick is needed; need_tick() switches back to the
// periodic tick at once. Masked / any.
void idle_program(std::uint64_t deadline_us) noexcept;
void need_tick() noexcept;

namespace detail {

// The core clock (port::set_cpu_hz()).
extern kairos::mcu::core_clock core_clock;
// The periodic tick, in timer counts (1 ms, or systick_start()'s); 0: the
// time base has not started.
extern std::uint32_t tick_period;
// The tick hook (set_tick_hook()); nullptr: none.
extern volatile tick_hook tick_fn;
// Tickless idle (docs/kernel.md, "Tickless idle"): idle_until is the last
// deadline port::idle() was given, in timer counts (UINT64_MAX: none);
// tickers is true while a kairos::ticker is armed. Either the tick hook or
// an armed ticker keeps the periodic tick.
extern std::uint64_t idle_until;
extern bool tickers;
// slice_tick(): time slicing needs the tick (kairos_slice_ticking,
// kairos/detail/time_slice_hook.hpp); always false without
// KAIROS_TIME_SLICE_US.
#if KAIROS_TIME_SLICE_US
inline bool slice_tick() noexcept { return &kairos_slice_ticking != nullptr && kairos_slice_ticking; }
#else
constexpr bool slice_tick() noexcept { return false; }
#endif

// periodic(): the tick must stay periodic: tickless idle off, a running
// thread whose slice the tick checks, a tick hook or a ticker.
inline bool periodic() noexcept {
    return !KAIROS_TICKLESS || slice_tick() || tick_fn != nullptr || tickers;
}

}  // namespace detail
}  // namespace kairos::cortex_m

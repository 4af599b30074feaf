// SPDX-License-Identifier: MIT
// ktarget::periodic_irq_start() on Cortex-M: the test's function runs in
// the tick interrupt (SysTick, or the board timer's alarm), restarted at the
// requested period (the time base keeps counting).
#include "cortex_m.hpp"
#include "target.hpp"

void ktarget::periodic_irq_start(std::uint32_t period_us, void (*fn)()) noexcept {
    kairos::cortex_m::set_tick_hook(fn);
    kairos::cortex_m::systick_start(period_us * (kairos::port::cpu_hz() / 1000000u));
}

void ktarget::periodic_irq_stop() noexcept { kairos::cortex_m::set_tick_hook(nullptr); }

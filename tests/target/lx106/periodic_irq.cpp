// SPDX-License-Identifier: MIT
// ktarget::periodic_irq_start() on lx106: the test's function runs in the
// port's CCOMPARE0 tick, restarted at the requested period.
#include "lx106.hpp"
#include "target.hpp"

void ktarget::periodic_irq_start(std::uint32_t period_us, void (*fn)()) noexcept {
    kairos::lx106::set_tick_hook(fn);
    kairos::lx106::tick_start(period_us * (kairos::port::cpu_hz() / 1000000u));
}

// The tick itself keeps running, back at its default 1 ms: it is also the
// kernel's wake-up for sleeps and the tickers' time base.
void ktarget::periodic_irq_stop() noexcept {
    kairos::lx106::set_tick_hook(nullptr);
    kairos::lx106::tick_start(kairos::port::cpu_hz() / 1000u);
}

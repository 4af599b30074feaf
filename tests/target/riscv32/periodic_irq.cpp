// SPDX-License-Identifier: MIT
// ktarget::periodic_irq_start() on RV32: the test's function runs in the
// port's machine timer tick, restarted at the requested period.
#include "riscv.hpp"
#include "target.hpp"

void ktarget::periodic_irq_start(std::uint32_t period_us, void (*fn)()) noexcept {
    kairos::riscv::set_tick_hook(fn);
    kairos::riscv::tick_start(period_us * (kairos::port::cpu_hz() / 1000000u));
}

// The tick itself keeps running, back at its default 1 ms: it is also the
// kernel's wake-up for sleeps and the tickers' time base.
void ktarget::periodic_irq_stop() noexcept {
    kairos::riscv::set_tick_hook(nullptr);
    kairos::riscv::tick_start(kairos::port::cpu_hz() / 1000u);
}

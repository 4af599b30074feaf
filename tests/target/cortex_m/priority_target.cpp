// SPDX-License-Identifier: MIT
// The Cortex-M interrupt priority model (docs/porting.md, "Interrupt
// priorities"), order-based:
// - critical_section_threshold: two external IRQs pended inside a kairos
//   critical section. On ARMv7-M and ARMv8-M mainline the one more urgent
//   than KAIROS_MAX_SYSCALL_PRIO (priority 0) runs inside the section, the
//   one at the threshold only at irq_restore(); on ARMv6-M (PRIMASK) both
//   wait for irq_restore().
// - nested_sections: an inner irq_restore() does not unmask.
// - idle_runs_lowest_irq: every thread blocked, no idle thread; an IRQ at
//   the lowest priority (0xFF, PendSV's), pended from the SysTick tick hook,
//   sets the waiting thread's flags and must run while the kernel idles. If
//   it cannot, the tick hook sets a timeout flag after a bounded number of
//   ticks and the check fails.
#include "cortex_m.hpp"
#include "target.hpp"

#ifndef KAIROS_SCENARIO_STACK
#  define KAIROS_SCENARIO_STACK 768
#endif
#include "kernel_scenarios.hpp"
#include "runner.hpp"

namespace ks = scenarios::kernel;
namespace k = kairos::kernel;
namespace reg = kairos::cortex_m::reg;

namespace {

constexpr unsigned irq_urgent = 1;  // priority 0: above the threshold
constexpr unsigned irq_lax = 2;     // priority KAIROS_MAX_SYSCALL_PRIO: masked by kairos
constexpr unsigned irq_lowest = 3;  // priority 0xFF, calls kairos

// seq orders the events: each records ++seq.
volatile unsigned seq = 0;
volatile unsigned urgent_at = 0;
volatile unsigned lax_at = 0;

void pend(unsigned irq) {
    reg::at(reg::nvic_ispr) = 1u << irq;
    asm volatile("dsb\n\tisb" ::: "memory");  // taken here unless masked
}

void setup_irqs() {
    kairos::cortex_m::set_irq_priority(irq_urgent, 0x00);
    kairos::cortex_m::set_irq_priority(irq_lax, KAIROS_MAX_SYSCALL_PRIO);
    kairos::cortex_m::set_irq_priority(irq_lowest, 0xFF);
    reg::at(reg::nvic_iser) = (1u << irq_urgent) | (1u << irq_lax) | (1u << irq_lowest);
}

void critical_section_threshold() {
    seq = urgent_at = lax_at = 0;
    const kairos::port::irq_state s = kairos::port::irq_disable();
    pend(irq_urgent);
    pend(irq_lax);
    const unsigned inside = ++seq;
    kairos::port::irq_restore(s);
    const unsigned after = ++seq;
#if defined(__ARM_ARCH_6M__)
    KT_CHECK(inside < urgent_at);  // PRIMASK masks everything
#else
    KT_CHECK(urgent_at < inside);  // zero-latency: never masked by kairos
#endif
    KT_CHECK(inside < lax_at);  // at the threshold: masked
    KT_CHECK(urgent_at != 0 && urgent_at < lax_at && lax_at < after);
}

void nested_sections() {
    seq = lax_at = 0;
    const kairos::port::irq_state outer = kairos::port::irq_disable();
    const kairos::port::irq_state inner = kairos::port::irq_disable();
    pend(irq_lax);
    kairos::port::irq_restore(inner);
    const unsigned inside = ++seq;
    kairos::port::irq_restore(outer);
    KT_CHECK(lax_at != 0 && inside < lax_at);
}

// ---- idle ------------------------------------------------------------------

constexpr k::flags_t flag_irq = 0x1;
constexpr k::flags_t flag_timeout = 0x2;
constexpr unsigned pend_at_tick = 5;
constexpr unsigned timeout_ticks = 200;

k::pid waiter = k::no_pid;
k::pid sleeper = k::no_pid;
volatile unsigned ticks = 0;
volatile bool lowest_ran = false;

void tick() {
    const unsigned t = ticks + 1;
    ticks = t;
    if (t == pend_at_tick) pend(irq_lowest);  // runs after SysTick: same priority
    if (t == timeout_ticks && !lowest_ran) (void)k::flags_set(waiter, flag_timeout);
}

void idle_runs_lowest_irq() {
    ks::begin();
    ticks = 0;
    lowest_ran = false;
    waiter = ks::spawn(4, [](void*) {
        const k::flags_t got = k::flags_wait_any(flag_irq | flag_timeout);
        KT_CHECK_EQ(got, flag_irq);
        KT_CHECK(ticks < timeout_ticks);
        KT_CHECK_EQ(k::wakeup(sleeper), 1);
    });
    // Keeps a deadline armed so run() does not return while the waiter waits.
    sleeper = ks::spawn(5, [](void*) { k::sleep_us(10'000'000); });
    kairos::cortex_m::set_tick_hook(tick);
    ks::finish();
    kairos::cortex_m::set_tick_hook(nullptr);
    KT_CHECK(lowest_ran);
}

}  // namespace

extern "C" void IRQ1_Handler() { urgent_at = ++seq; }
extern "C" void IRQ2_Handler() { lax_at = ++seq; }
extern "C" void IRQ3_Handler() {
    lowest_ran = true;
    (void)k::flags_set(waiter, flag_irq);
}

int main() {
    setup_irqs();
    static const ktarget::test_case cases[] = {
        {"critical_section_threshold", critical_section_threshold},
        {"nested_sections", nested_sections},
        {"idle_runs_lowest_irq", idle_runs_lowest_irq},
    };
    return ktarget::run(cases);
}

// SPDX-License-Identifier: MIT
// soft_irq.hpp: a test interrupt raised from a thread, on every target
// architecture, for the on-target tests and benchmarks.
//
// Cortex-M pends an NVIC line, whose handler IRQ<n>_Handler the firmware
// defines (the benchmark collectors mark that symbol). lx106 and RV32 have
// no free line: they raise the software interrupt the port's switch
// requests use (request_switch()), and the port's soft-interrupt hook runs
// the test's function when one is pending, telling it from a plain switch
// request.
#pragma once

#if defined(__XTENSA__)
#  include "lx106.hpp"
#elif defined(__riscv)
#  include "riscv.hpp"
#else
#  include "cortex_m.hpp"
#endif
#include <kairos/port.hpp>

namespace ktarget {

#if defined(__XTENSA__) || defined(__riscv)
#  if defined(__XTENSA__)
namespace soft_irq_port = kairos::lx106;
#  else
namespace soft_irq_port = kairos::riscv;
#  endif
// soft_irq_fn is the function of the pending test interrupt, nullptr when
// the software interrupt is only a switch request.
inline void (*volatile soft_irq_fn)() = nullptr;
inline void soft_irq_hook() {
    void (*const f)() = soft_irq_fn;
    if (f != nullptr) {
        soft_irq_fn = nullptr;
        f();
    }
}
#endif

// pend_irq<Fn>(irq) raises a test interrupt and returns after its handler
// ran (called from a thread with interrupts enabled; when masked, the
// handler runs at the unmasking). Cortex-M: NVIC line irq at the lowest
// priority (its handler calls kairos, so it must be maskable), handled by
// the firmware's IRQ<irq>_Handler, which must call Fn; lx106, RV32: the
// software interrupt, which calls Fn. Fn is a template argument so that on
// Cortex-M nothing takes its address: GCC then inlines it into the IRQ
// handler, and the latency benches count no extra branch. Context: thread.
template <void (*Fn)()>
inline void pend_irq(unsigned irq) {
#if defined(__XTENSA__) || defined(__riscv)
    (void)irq;
    soft_irq_port::set_soft_irq_hook(soft_irq_hook);
    soft_irq_fn = Fn;
    kairos::port::request_switch();
#else
    namespace reg = kairos::cortex_m::reg;
    kairos::cortex_m::set_irq_priority(irq, 0xFF);
    reg::at(reg::nvic_iser) = 1u << irq;
    reg::at(reg::nvic_ispr) = 1u << irq;
    asm volatile("dsb\n\tisb" ::: "memory");
#endif
}

}  // namespace ktarget

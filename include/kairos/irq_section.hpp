// SPDX-License-Identifier: MIT
// kairos/irq_section.hpp: the port's interrupt mask as the critical section
// of kairos::rmw_masked<> (kairos/rmw.hpp).
#pragma once

#include <kairos/port.hpp>
#include <kairos/rmw.hpp>

namespace kairos {

// irq_section is the port's interrupt mask as a critical section: enter()
// is port::irq_disable(), leave(s) is port::irq_restore(s). Context: any.
struct irq_section {
    using state = port::irq_state;
    static state enter() noexcept { return port::irq_disable(); }
    static void leave(state s) noexcept { port::irq_restore(s); }
};

}  // namespace kairos

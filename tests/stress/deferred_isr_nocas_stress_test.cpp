// SPDX-License-Identifier: MIT
// Recurrent registration and cancellation from a signal handler on the path
// for cores without compare-and-swap (kairos::rmw_masked<>, the default
// where KAIROS_HAS_CAS == 0: ARMv6-M, lx106), compiled for the host: claims
// and publications run inside port::irq_disable()/irq_restore(), and the
// host port defers the handler while the virtual mask is set, as a core
// defers an interrupt.
#include "deferred_isr_stress.hpp"

static_assert(!isr_stress::state<13, 40, kairos::rmw_masked<>>::sched_t::rmw_policy::uses_cas);

TEST(deferred_isr_nocas_stress, register_and_cancel_from_a_signal_handler) {
    isr_stress::state<13, 40, kairos::rmw_masked<>>::run();
}

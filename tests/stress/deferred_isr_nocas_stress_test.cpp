// SPDX-License-Identifier: MIT
// Recurrent registration and cancellation from a signal handler on the path
// for cores without compare-and-swap (KAIROS_HAS_CAS 0: ARMv6-M, lx106),
// compiled for the host: claims and publications run inside
// port::irq_disable()/irq_restore(), and the host port defers the handler
// while the virtual mask is set, as a core defers an interrupt. Defined
// before any kairos header; nothing else in this executable instantiates
// these scheduler types.
#define KAIROS_HAS_CAS 0

#include "deferred_isr_stress.hpp"

static_assert(KAIROS_HAS_CAS == 0);

TEST(deferred_isr_nocas_stress, register_and_cancel_from_a_signal_handler) {
    isr_stress::state<13, 40>::run();
}

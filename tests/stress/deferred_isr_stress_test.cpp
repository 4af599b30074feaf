// SPDX-License-Identifier: MIT
// Recurrent registration and cancellation from a signal handler, on the
// compare-and-swap path (deferred_isr_stress.hpp).
#include "deferred_isr_stress.hpp"

TEST(deferred_isr_stress, register_and_cancel_from_a_signal_handler) {
    isr_stress::state<16, 32, kairos::rmw_cas>::run();
}

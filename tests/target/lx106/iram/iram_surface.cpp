// SPDX-License-Identifier: MIT
// The ISR-callable surface behind the ESP8266 compat layer, instantiated
// the way an interrupt handler uses it, for scripts/check-iram (ctest
// lx106.iram_placement): everything reachable from kairos_iram_surface()
// and from the port's interrupt entry must be in IRAM. Linked, not run.
// Schedule.h itself needs std::function, which this lx106 toolchain lacks
// (no C library): its engine, kairos::deferred with the compat capacities,
// stands in for it here.
#include <kairos/deferred.hpp>
#include <kairos/mpsc_ring.hpp>
#include <kairos/port.hpp>
#include <kairos/spsc_ring.hpp>


#include <cstdint>

namespace {

kairos::mpsc_ring<std::uint32_t, 8> mpsc;
kairos::spsc_ring<std::uint32_t, 8> spsc;
kairos::deferred<32, 32> scheduler;  // Schedule.h's defaults
volatile std::uint32_t sink;

}  // namespace

// kairos_iram_surface(v) does from interrupt context what the compat layer
// promises an ISR may do: queue one-shot and recurrent functions, push to the rings, read the clock, mask.
extern "C" KAIROS_ISR_FN void kairos_iram_surface(std::uint32_t v) {
    const kairos::port::irq_state s = kairos::port::irq_disable();
    static_cast<void>(scheduler.schedule([v] { sink = v; }));
    static_cast<void>(scheduler.schedule_recurrent([] { return false; }, 1000));
    static_cast<void>(mpsc.try_push(v));
    static_cast<void>(spsc.try_push(v));
    sink = static_cast<std::uint32_t>(kairos::port::now_us());
    kairos::port::irq_restore(s);
}

int main() {
    kairos_iram_surface(1);
    scheduler.run();
    scheduler.run_recurrent();
    return 0;
}

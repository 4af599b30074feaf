// Code-size probe: with KAIROS_SIZE_RINGS the firmware pushes and pops an
// spsc_ring and an mpsc_ring (the ISR-safe paths firmware uses); without it,
// the same main() minus the rings. The difference of `size` output is what
// the rings cost in text/data/bss (bench/target/collect reports it).
#include <cstdint>

#include "target.hpp"

#if KAIROS_SIZE_RINGS
#  include <kairos/mpsc_ring.hpp>
#  include <kairos/spsc_ring.hpp>
kairos::spsc_ring<std::uint32_t, 16> spsc_q;
kairos::mpsc_ring<std::uint32_t, 16> mpsc_q;
#endif

volatile std::uint32_t input = 7;

int main() {
    std::uint32_t v = input, out = 0;
#if KAIROS_SIZE_RINGS
    if (spsc_q.try_push(v)) (void)spsc_q.try_pop(out);
    if (mpsc_q.try_push(v)) (void)mpsc_q.try_pop(out);
#else
    out = v;
#endif
    return out == v ? 0 : 1;
}

// Uses the public headers and the compiled library through the exported
// targets; returns non-zero if anything misbehaves.
#include <kairos/bits.hpp>
#include <kairos/spsc_ring.hpp>

#include "circular_queue/circular_queue.h"  // kairos::esp8266_compat, unqualified name

int main() {
    static_assert(kairos::msb(std::uint32_t{0x80u}) == 7);
    std::uint32_t w = 0x90u;
    const unsigned first = kairos::test_and_clear(w);
    if (!((first == 7 || first == 4) && kairos::popcount(w) == 1)) return 1;

    kairos::spsc_ring<int, 4> ring;
    int v = 0;
    if (!ring.try_push(42) || !ring.try_pop(v) || v != 42) return 2;

    circular_queue<int> q(3);
    return q.push(7) && q.pop() == 7 && q.available() == 0 ? 0 : 3;
}

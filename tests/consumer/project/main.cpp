// Uses the public headers and the compiled library through the exported
// targets; returns non-zero if anything misbehaves.
#include <kairos/bits.hpp>

int main() {
    static_assert(kairos::msb(std::uint32_t{0x80u}) == 7);
    std::uint32_t w = 0x90u;
    const unsigned first = kairos::test_and_clear(w);
    return (first == 7 || first == 4) && kairos::popcount(w) == 1 ? 0 : 1;
}

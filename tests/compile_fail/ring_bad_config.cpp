// SPDX-License-Identifier: MIT
// Impossible ring configurations must not compile, each with its own
// message. tests/CMakeLists.txt compiles this file once per CASE and expects
// the static_assert text of that case in the compiler's output.
#include <kairos/mpsc_ring.hpp>
#include <kairos/spsc_ring.hpp>

#include <cstdint>

struct throwing_move {
    throwing_move() = default;
    throwing_move(throwing_move&&) noexcept(false) {}
};

#if CASE == 1
kairos::spsc_ring<int, 0> r;  // "N must be at least 1"
#elif CASE == 2
kairos::spsc_ring<int, 12> r;  // "N must be a power of two"
#elif CASE == 3
kairos::spsc_ring<int, 256, std::uint8_t> r;  // "Index too narrow"
#elif CASE == 4
kairos::spsc_ring<throwing_move, 8> r;  // "nothrow move constructible"
#elif CASE == 5
kairos::mpsc_ring<int, 1> r;  // "N must be at least 2"
#elif CASE == 6
kairos::mpsc_ring<int, 8, std::uint16_t> r;  // "at least 32 bits"
#endif

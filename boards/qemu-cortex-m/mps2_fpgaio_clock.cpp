// SPDX-License-Identifier: MIT
// The tests' reference clock (ktarget::reference_ns(), tests/target/
// target.hpp) on the mps2 FPGA I/O block's COUNTER (AN385/AN505 FPGAIO,
// QEMU hw/misc/mps2-fpgaio.c) at KAIROS_REFCLK_BASE: with PRESCALE at its
// reset value 0 it counts the block's prescale clock from reset, 32 bits,
// computed from QEMU's virtual clock whenever it is read. Neither the port
// nor the board timer (the CMSDK dual timer) uses the block, so the time it
// shows is independent of theirs. KAIROS_REFCLK_NS_PER_COUNT: nanoseconds
// per count at the model's prescale clock (board.cmake).
#include "target.hpp"

#include <cstdint>

#if !defined(KAIROS_REFCLK_BASE) || !defined(KAIROS_REFCLK_NS_PER_COUNT)
#  error "KAIROS_REFCLK_BASE, KAIROS_REFCLK_NS_PER_COUNT: set by the board's board.cmake"
#endif

bool ktarget::reference_ns(std::uint64_t& ns) noexcept {
    const std::uint32_t count = *reinterpret_cast<volatile std::uint32_t*>(KAIROS_REFCLK_BASE + 0x18);
    ns = std::uint64_t{count} * KAIROS_REFCLK_NS_PER_COUNT;
    return true;
}

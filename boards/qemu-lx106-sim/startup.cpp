// SPDX-License-Identifier: MIT
// Startup of the QEMU lx106 `sim` board without a C library: zero .bss, set
// the core clock, run static constructors, call main() and exit with its
// result. QEMU's ELF loader (like the ESP8266 boot ROM on hardware) places
// every loaded section at its run address, so .data needs no copy. Also the
// board's exception policy (the port's vector path, switch.S, calls
// kairos_lx106_exception).
#include "lx106.hpp"
#include "../common/start_main.hpp"

#include <kairos/detail/decimal.hpp>
#include <kairos/port.hpp>

#include <cstdint>

#ifndef KAIROS_BOARD_CPU_HZ
#  error "KAIROS_BOARD_CPU_HZ: the QEMU model's CCOUNT rate, set by the board's board.cmake"
#endif

extern "C" {
[[noreturn]] void kairos_lx106_start() { kairos_board_start_main<false>(KAIROS_BOARD_CPU_HZ); }

// kairos_lx106_exception(cause, frame) reports an exception (anything but a
// level-1 interrupt; 0xFFFFFFFF: a vector that should never be taken) and
// exits 98, like a Cortex-M HardFault.
void kairos_lx106_exception(std::uint32_t cause, kairos::lx106::exception_frame*) noexcept {
    char buf[11];
    *kairos::detail::put_decimal(buf, cause) = '\0';
    kairos::port::console_write("kairos: exception, EXCCAUSE ");
    kairos::port::console_write(buf);
    kairos::port::console_write("\n");
    kairos_port_exit(98);
}
}

// SPDX-License-Identifier: MIT
// Startup of the QEMU RV32 virt board without a C library: zero .bss, set
// the timer's rate, run static constructors, call main() and exit with its
// result. QEMU's ELF loader places every loaded section at its run address,
// so .data needs no copy. Also the board's exception policy (the port's
// trap entry, trap.S, calls kairos_riscv_exception).
#include "riscv.hpp"
#include "../common/start_main.hpp"

#include <kairos/detail/decimal.hpp>
#include <kairos/port.hpp>

#include <cstdint>

#ifndef KAIROS_BOARD_CPU_HZ
#  error "KAIROS_BOARD_CPU_HZ: the QEMU model's mtime rate, set by the board's board.cmake"
#endif

extern "C" {
[[noreturn]] void kairos_riscv_start() { kairos_board_start_main<false>(KAIROS_BOARD_CPU_HZ); }

// kairos_riscv_exception(mcause, frame) reports a synchronous exception
// and exits 98, like a Cortex-M HardFault.
void kairos_riscv_exception(std::uint32_t mcause, kairos::riscv::trap_frame* frame) noexcept {
    char buf[11];
    kairos::port::console_write("kairos: exception, mcause ");
    *kairos::detail::put_decimal(buf, mcause) = '\0';
    kairos::port::console_write(buf);
    kairos::port::console_write(" mepc ");
    *kairos::detail::put_decimal(buf, frame->mepc) = '\0';
    kairos::port::console_write(buf);
    kairos::port::console_write("\n");
    kairos_port_exit(98);
}
}

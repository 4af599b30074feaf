// SPDX-License-Identifier: MIT
// The board hooks of the QEMU lx106 `sim` machine (include/kairos/board.hpp):
// console and exit through QEMU's Xtensa simcall semihosting (simcall.hpp).
// simcall is an illegal instruction on an ESP8266 without a debugger, which
// is why it is here and not in the port.
#include <kairos/board.hpp>
#include <kairos/config.hpp>
#include <kairos/port.hpp>

#include "simcall.hpp"

// Both are interrupt-side (panics and reports from ISRs): IRAM, with the
// inline simcall wrappers inlined into them.
KAIROS_ISR_FN void kairos::port::console_write(const char* s) noexcept {
    kairos::qemu_lx106::write(s);
}

// kairos_port_exit(code): the simulator's exit (QEMU keeps the low 8 bits).
extern "C" KAIROS_ISR_FN void kairos_port_exit(int code) noexcept { kairos::qemu_lx106::exit(code); }

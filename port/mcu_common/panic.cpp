// SPDX-License-Identifier: MIT
// The board hooks' weak defaults for the bare-metal ports (include/kairos/
// board.hpp): panic prints the message over the board's console and exits
// with code 97 through the board's kairos_port_exit(); without a board
// console the output is dropped, and without a board exit the core waits
// forever with interrupts masked; the idle power hooks do nothing. Nothing
// here needs a debugger. Shared by
// cortex_m and xtensa_lx106; a board or firmware replaces any of them with a
// strong definition.
#include <kairos/board.hpp>
#include <kairos/detail/panic_message.hpp>
#include <kairos/port.hpp>

namespace {

constexpr int exit_panic = 97;  // ctest tests check this exact status

}  // namespace

__attribute__((weak)) void kairos::port::console_write(const char*) noexcept {}

extern "C" {

__attribute__((weak)) void kairos_port_exit(int) noexcept {
    kairos::port::irq_disable();  // never restored: we do not come back
    for (;;) {
    }
}

__attribute__((weak)) void kairos_idle_enter(std::uint64_t) noexcept {}
__attribute__((weak)) void kairos_idle_exit() noexcept {}

__attribute__((weak)) void kairos_port_panic(const char* what, const char* file, int line) noexcept {
    kairos::port::irq_disable();  // never restored: we do not come back
    kairos::detail::write_panic_message(what, file, line);
    kairos_port_exit(exit_panic);
}

}  // extern "C"

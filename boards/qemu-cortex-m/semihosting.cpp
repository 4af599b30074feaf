// SPDX-License-Identifier: MIT
// The board hooks of the QEMU Cortex-M boards (include/kairos/board.hpp):
// console and exit through Arm semihosting, which QEMU implements, and the
// HardFault policy of the tests (report, exit 98). Semihosting (bkpt 0xAB)
// is for a debugger or an emulator only: on a real core without one
// attached the breakpoint itself faults, which is why it is here and not in
// the port.
#include <kairos/board.hpp>
#include <kairos/port.hpp>

#include <cstdint>

namespace {

// Exit code seen by ctest for a HardFault (the startup's Default_Handler
// uses 96 for unexpected exceptions, panic 97).
constexpr int exit_hardfault = 98;

// semihost(op, arg) performs an Arm semihosting call: bkpt 0xAB with the
// operation in r0 and the argument in r1; the result comes back in r0.
int semihost(int op, const void* arg) noexcept {
    register int r0 asm("r0") = op;
    register const void* r1 asm("r1") = arg;
    asm volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}
constexpr int sys_write0 = 0x04;
constexpr int sys_exit = 0x18;
constexpr int sys_exit_extended = 0x20;
constexpr std::uint32_t adp_stopped_application_exit = 0x20026;
constexpr std::uint32_t adp_stopped_runtime_error = 0x20023;

}  // namespace

void kairos::port::console_write(const char* s) noexcept { semihost(sys_write0, s); }

extern "C" {

// kairos_port_exit(code): SYS_EXIT_EXTENDED, so ctest sees the code itself.
void kairos_port_exit(int code) noexcept {
    const std::uint32_t block[2] = {adp_stopped_application_exit, static_cast<std::uint32_t>(code)};
    semihost(sys_exit_extended, block);
    // Fallback for hosts without SYS_EXIT_EXTENDED: only pass/fail survives.
    semihost(sys_exit, reinterpret_cast<const void*>(static_cast<std::uintptr_t>(
                           code == 0 ? adp_stopped_application_exit : adp_stopped_runtime_error)));
    for (;;) asm volatile("wfi");
}

// HardFault_Handler() reports the fault and exits 98.
void HardFault_Handler() noexcept {
    kairos::port::console_write("kairos: HardFault\n");
    kairos_port_exit(exit_hardfault);
}

}  // extern "C"

// SPDX-License-Identifier: MIT
// The board hooks of the QEMU RV32 virt machine (include/kairos/board.hpp):
// console through RISC-V semihosting, which QEMU implements, and exit
// through the machine's SiFive test finisher, which hands QEMU the exact
// status. The semihosting call is an ebreak between two marker
// instructions; on a core without a debugger the ebreak traps, which is why
// it is here and not in the port.
#include <kairos/board.hpp>
#include <kairos/port.hpp>

#include <cstdint>

namespace {

// semihost(op, arg) performs a semihosting call: the three uncompressed
// instructions the RISC-V semihosting spec fixes (slli x0, ebreak, srai x0,
// in one page: 16-byte aligned), operation in a0, argument in a1; the
// result comes back in a0.
int semihost(int op, const void* arg) noexcept {
    register int a0 asm("a0") = op;
    register const void* a1 asm("a1") = arg;
    asm volatile(
        ".option push\n\t.option norvc\n\t.balign 16\n\t"
        "slli zero, zero, 0x1f\n\tebreak\n\tsrai zero, zero, 7\n\t.option pop"
        : "+r"(a0)
        : "r"(a1)
        : "memory");
    return a0;
}
constexpr int sys_write0 = 0x04;

// The SiFive test finisher of QEMU's virt machine: writing
// (status << 16) | fail ends QEMU with that status, pass with 0.
constexpr std::uintptr_t test_finisher = 0x100000;
constexpr std::uint32_t finisher_fail = 0x3333;
constexpr std::uint32_t finisher_pass = 0x5555;

}  // namespace

void kairos::port::console_write(const char* s) noexcept { semihost(sys_write0, s); }

extern "C" void kairos_port_exit(int code) noexcept {
    const auto status = static_cast<std::uint32_t>(code) & 0xFFFFu;
    *reinterpret_cast<volatile std::uint32_t*>(test_finisher) =
        status == 0 ? finisher_pass : (status << 16) | finisher_fail;
    for (;;) asm volatile("wfi");
}

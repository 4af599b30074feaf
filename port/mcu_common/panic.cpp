// kairos_port_panic() for the bare-metal ports: print the message over the
// port's console and exit with code 97 through the port's kairos_port_exit()
// (semihosting under QEMU). Shared by cortex_m and xtensa_lx106.
#include <kairos/port.hpp>

#include <cstdint>

extern "C" [[noreturn]] void kairos_port_exit(int code) noexcept;

namespace {

constexpr int exit_panic = 97;  // ctest tests check this exact status

// write_dec(v) prints v in decimal by repeated subtraction of powers of ten:
// no division (no __aeabi_uidiv on ARMv6-M, no __udivsi3 in lx106's libgcc).
void write_dec(std::uint32_t v) noexcept {
    static constexpr std::uint32_t pow10[] = {1000000000u, 100000000u, 10000000u, 1000000u,
                                              100000u,     10000u,     1000u,     100u,
                                              10u,         1u};
    char buf[11];
    char* p = buf;
    for (const std::uint32_t w : pow10) {
        char d = '0';
        while (v >= w) {
            v -= w;
            ++d;
        }
        if (d != '0' || p != buf || w == 1) *p++ = d;
    }
    *p = '\0';
    kairos::port::console_write(buf);
}

}  // namespace

extern "C" void kairos_port_panic(const char* what, const char* file, int line) noexcept {
    kairos::port::irq_disable();  // never restored: we do not come back
    kairos::port::console_write("kairos: panic: ");
    kairos::port::console_write(what);
    kairos::port::console_write(" (");
    kairos::port::console_write(file);
    kairos::port::console_write(":");
    write_dec(static_cast<std::uint32_t>(line));
    kairos::port::console_write(")\n");
    kairos_port_exit(exit_panic);
}

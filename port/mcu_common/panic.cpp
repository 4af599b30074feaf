// kairos_port_panic() for the bare-metal ports: print the message over the
// port's console and exit with code 97 through the port's kairos_port_exit()
// (semihosting under QEMU). Shared by cortex_m and xtensa_lx106.
#include <kairos/detail/panic_message.hpp>
#include <kairos/port.hpp>

extern "C" [[noreturn]] void kairos_port_exit(int code) noexcept;

namespace {

constexpr int exit_panic = 97;  // ctest tests check this exact status

}  // namespace

extern "C" void kairos_port_panic(const char* what, const char* file, int line) noexcept {
    kairos::port::irq_disable();  // never restored: we do not come back
    kairos::detail::write_panic_message(what, file, line);
    kairos_port_exit(exit_panic);
}

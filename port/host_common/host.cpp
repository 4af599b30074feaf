// Port hooks common to every hosted (Linux) port: time, console, panic.
#include <kairos/port.hpp>

#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace kairos::port {

std::uint64_t now_us() noexcept {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);  // vDSO: no system call
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000000u +
           static_cast<std::uint64_t>(ts.tv_nsec) / 1000u;
}

void console_write(const char* s) noexcept { std::fputs(s, stderr); }

}  // namespace kairos::port

extern "C" void kairos_port_panic(const char* what, const char* file, int line) noexcept {
    std::fprintf(stderr, "kairos: panic: %s (%s:%d)\n", what, file, line);
    std::abort();
}

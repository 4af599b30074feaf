// lx106 startup without a C library: zero .bss, run static constructors,
// call main() and exit with its result. QEMU's ELF loader (like the ESP8266
// boot ROM on hardware) places every loaded section at its run address, so
// .data needs no copy. Also the firmware's exception handler (the port's
// vector path, switch.S, calls kairos_lx106_exception) and
// ktarget::periodic_irq_start() on the port's CCOMPARE0 tick.
#include "lx106.hpp"
#include "target.hpp"

#include <cstdint>

extern "C" {
extern std::uint32_t _sbss[], _ebss[];
extern void (*__init_array_start[])();
extern void (*__init_array_end[])();
// main() itself may not be called in C++: reach it under another name.
int kairos_app_main() __asm__("main");

[[noreturn]] void kairos_lx106_start() {
    for (std::uint32_t* dst = _sbss; dst < _ebss;) *dst++ = 0;
    for (void (**ctor)() = __init_array_start; ctor < __init_array_end; ++ctor) (*ctor)();
    kairos_port_exit(kairos_app_main());
}

// kairos_lx106_exception(cause, frame) reports an exception (anything but a
// level-1 interrupt; 0xFFFFFFFF: a vector that should never be taken) and
// exits 98, like a Cortex-M HardFault.
void kairos_lx106_exception(std::uint32_t cause, kairos::lx106::exception_frame*) noexcept {
    ktarget::print("kairos: exception, EXCCAUSE ");
    ktarget::print_u64(cause);
    ktarget::print("\n");
    kairos_port_exit(98);
}
}

void ktarget::periodic_irq_start(std::uint32_t period_us, void (*fn)()) noexcept {
    kairos::lx106::set_tick_hook(fn);
    kairos::lx106::tick_start(period_us * (kairos::lx106::cpu_hz / 1000000u));
}

// The tick itself keeps running, back at its default 1 ms: it is also the
// kernel's wake-up for sleeps and the tickers' time base.
void ktarget::periodic_irq_stop() noexcept {
    kairos::lx106::set_tick_hook(nullptr);
    kairos::lx106::tick_start(kairos::lx106::cpu_hz / 1000u);
}

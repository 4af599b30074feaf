// SPDX-License-Identifier: MIT
// port/framework_esp8266: kairos on top of the ESP8266 Arduino core or the
// NONOS SDK. The framework owns the vector table, the timers and the
// interrupt levels; this port only borrows its clock (micros64()), its
// console (ets_printf()), its panic (__panic_func()) and its loop wake-up
// (esp_schedule()). Masks: kairos_port_irq.hpp. Rings, the deferred
// scheduler, tickers (ticker.cpp) and the ESP8266 compat layer run on it;
// the kernel (threads) does not: the framework has its own scheduler.
//
// The framework functions are declared here as the core declares them
// (C linkage), so the port builds with or without the core's headers.
#include <kairos/detail/panic_message.hpp>
#include <kairos/port.hpp>

#include <cstdint>

#include "kairos_framework.hpp"

extern "C" {
std::uint64_t micros64(void);                // Arduino.h
void esp_schedule(void);                     // coredecls.h
int ets_printf(const char* format, ...);     // ROM, osapi.h
[[noreturn]] void __panic_func(const char* file, int line, const char* func);  // debug.h
}

namespace kairos::port {

// now_us() is the core's micros64(): 64-bit microseconds since boot.
std::uint64_t now_us() noexcept { return micros64(); }

const char* name() noexcept { return "framework_esp8266"; }

// console_write(s) goes to the ROM's ets_printf (UART0 as the core set it
// up). Weak: a sketch that wants Serial instead defines its own.
__attribute__((weak)) void console_write(const char* s) noexcept { ets_printf("%s", s); }

}  // namespace kairos::port

void kairos::framework::wake(void*) noexcept { esp_schedule(); }

// kairos_port_panic() prints kairos' message, then hands over to the core's
// panic (stack dump, reset), which reports file, line and what failed.
extern "C" void kairos_port_panic(const char* what, const char* file, int line) noexcept {
    kairos::port::irq_disable();  // never restored: the core resets
    kairos::detail::write_panic_message(what, file, line);
    __panic_func(file, line, what);
}

// SPDX-License-Identifier: MIT
// kairos_board_start_main<CopyData>(cpu_hz) is the C runtime start that the
// boards without a C library's crt0 end their reset path in: copy .data from
// its load address (CopyData; false where the ELF loader, like QEMU's or the
// ESP8266 boot ROM, already placed it at its run address), zero .bss, give
// the port the core clock, run the static constructors, call main() and exit
// with its result. Context: reset, interrupts off, on the boot stack.
// Linker-script symbols: _sbss/_ebss, __init_array_start/_end, and with
// CopyData _sidata/_sdata/_edata, all word aligned.
#pragma once

#include <kairos/board.hpp>
#include <kairos/port.hpp>

#include <cstdint>

extern "C" {
extern std::uint32_t _sidata[], _sdata[], _edata[], _sbss[], _ebss[];
extern void (*__init_array_start[])();
extern void (*__init_array_end[])();
// main() itself may not be called in C++: reach it under another name.
int kairos_app_main() __asm__("main");
}

template <bool CopyData>
[[noreturn]] inline void kairos_board_start_main(std::uint32_t cpu_hz) noexcept {
    if constexpr (CopyData) {
        for (std::uint32_t *src = _sidata, *dst = _sdata; dst < _edata;) *dst++ = *src++;
    }
    for (std::uint32_t* dst = _sbss; dst < _ebss;) *dst++ = 0;
    kairos::port::set_cpu_hz(cpu_hz);
    for (void (**ctor)() = __init_array_start; ctor < __init_array_end; ++ctor) (*ctor)();
    kairos_port_exit(kairos_app_main());
}

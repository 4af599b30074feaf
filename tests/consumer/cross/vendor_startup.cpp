// SPDX-License-Identifier: MIT
// The vendor side of a firmware shaped like a CMSIS/CubeMX/nrfx project: its
// own vector table and Reset_Handler, SystemInit() setting SystemCoreClock,
// its own strong SysTick_Handler and HardFault_Handler (as a generated
// stm32xx_it.c has) and its own console and exit (semihosting here, to
// report to ctest under QEMU mps2-an385; a real project writes a UART). Only
// PendSV_Handler comes from kairos. Nothing from boards/ is linked.
#include <kairos/board.hpp>
#include <kairos/port.hpp>

#include <cortex_m.hpp>  // the Cortex-M port's own header, installed with the package

#include <cstdint>

extern "C" {
extern std::uint32_t _sidata[], _sdata[], _edata[], _sbss[], _ebss[], _estack[];
extern void (*__init_array_start[])();
extern void (*__init_array_end[])();
int vendor_main() __asm__("main");

std::uint32_t SystemCoreClock = 0;
volatile std::uint32_t vendor_systicks = 0;  // the vendor's own tick count (HAL_IncTick style)

void SystemInit() { SystemCoreClock = 25000000; }  // mps2-an385: 25 MHz

void PendSV_Handler();  // kairos's

// semihost(op, arg): the project's own debug channel.
static int semihost(int op, const void* arg) {
    register int r0 asm("r0") = op;
    register const void* r1 asm("r1") = arg;
    asm volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

void kairos_port_exit(int code) noexcept {
    const std::uint32_t block[2] = {0x20026, static_cast<std::uint32_t>(code)};
    semihost(0x20, block);  // SYS_EXIT_EXTENDED
    for (;;) {
    }
}

void SysTick_Handler() {
    vendor_systicks = vendor_systicks + 1;
    kairos_tick();
}

void HardFault_Handler() {
    semihost(0x04, "vendor: HardFault\n");
    kairos_port_exit(98);
}

static void Vendor_Default_Handler() { kairos_port_exit(96); }

[[noreturn]] void Reset_Handler() {
    for (std::uint32_t *src = _sidata, *dst = _sdata; dst < _edata;) *dst++ = *src++;
    for (std::uint32_t* dst = _sbss; dst < _ebss;) *dst++ = 0;
    SystemInit();
#ifndef VENDOR_FORGETS_CLOCK
    kairos::port::set_cpu_hz(SystemCoreClock);
#endif
    for (void (**ctor)() = __init_array_start; ctor < __init_array_end; ++ctor) (*ctor)();
    kairos_port_exit(vendor_main());
}

using vector = void (*)();
__attribute__((section(".vendor_vectors"), used)) const vector g_pfnVectors[16 + 4] = {
    reinterpret_cast<vector>(_estack), Reset_Handler, Vendor_Default_Handler, HardFault_Handler,
    Vendor_Default_Handler, Vendor_Default_Handler, Vendor_Default_Handler, nullptr, nullptr, nullptr,
    nullptr, Vendor_Default_Handler, Vendor_Default_Handler, nullptr, PendSV_Handler, SysTick_Handler,
    Vendor_Default_Handler, Vendor_Default_Handler, Vendor_Default_Handler, Vendor_Default_Handler,
};

}  // extern "C"

void kairos::port::console_write(const char* s) noexcept { semihost(0x04, s); }

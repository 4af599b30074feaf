// SPDX-License-Identifier: MIT
// NUCLEO-F446RE (STM32F446RE, Cortex-M4F) startup, written in the shape of a
// vendor startup file (not copied from ST's): the vector table with the 16
// system exceptions and the part's 97 interrupt lines, Reset_Handler (FPU
// enable, .data copy, .bss zero, SystemInit(), static constructors, main)
// and weak Default_Handler aliases that the application overrides.
// PendSV_Handler is kairos's; SysTick_Handler is kairos's weak default
// unless the application defines one (which then calls kairos_tick()).
// Not run on hardware: CI builds it only.
#include <kairos/board.hpp>
#include <kairos/port.hpp>

#include "system_vectors.hpp"

#include <cstdint>

extern "C" {
extern std::uint32_t _sidata[], _sdata[], _edata[], _sbss[], _ebss[], _estack[];
extern void (*__init_array_start[])();
extern void (*__init_array_end[])();
int kairos_app_main() __asm__("main");

void SystemInit();  // system.cpp

// Default_Handler() is taken for any exception nobody handles: report it on
// the console and stop (kairos_port_exit() spins; no breakpoint).
void Default_Handler() {
    kairos::port::console_write("nucleo-f446re: unexpected exception\n");
    kairos_port_exit(96);
}

// HardFault_Handler() is weak too: a vendor or application fault handler
// replaces it.
#define KAIROS_WEAK_HANDLER(name) void name() __attribute__((weak, alias("Default_Handler")))
KAIROS_WEAK_HANDLER(NMI_Handler);
KAIROS_WEAK_HANDLER(HardFault_Handler);
KAIROS_WEAK_HANDLER(MemManage_Handler);
KAIROS_WEAK_HANDLER(BusFault_Handler);
KAIROS_WEAK_HANDLER(UsageFault_Handler);
KAIROS_WEAK_HANDLER(SVC_Handler);
KAIROS_WEAK_HANDLER(DebugMon_Handler);
KAIROS_WEAK_HANDLER(USART2_IRQHandler);
#undef KAIROS_WEAK_HANDLER
}

namespace {
using vector = void (*)();
constexpr int irq_count = 97;  // STM32F446: IRQ0 (WWDG) .. IRQ96 (FMPI2C1_ER); USART2 is IRQ38
}  // namespace

// The vector table at the start of flash (0x08000000, aliased at 0 on boot).
extern "C" __attribute__((section(".isr_vector"), used)) const vector kairos_vectors[16 + irq_count] = {
    KAIROS_CORTEX_M_SYSTEM_VECTORS(_estack),
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,  // IRQ0..3
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,  // IRQ4..7
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,  // IRQ8..11
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,  // IRQ12..15
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,  // IRQ16..19
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,  // IRQ20..23
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,  // IRQ24..27
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,  // IRQ28..31
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,  // IRQ32..35
    Default_Handler, Default_Handler, USART2_IRQHandler, Default_Handler,  // IRQ36..39
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,  // IRQ40..43
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,  // IRQ44..47
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,  // IRQ48..51
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,  // IRQ52..55
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,  // IRQ56..59
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,  // IRQ60..63
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,  // IRQ64..67
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,  // IRQ68..71
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,  // IRQ72..75
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,  // IRQ76..79
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,  // IRQ80..83
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,  // IRQ84..87
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,  // IRQ88..91
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,  // IRQ92..95
    Default_Handler,  // IRQ96..96
};

extern "C" void Reset_Handler() {
    // Full access to CP10/CP11 (the FPU) before any code may use it.
    *reinterpret_cast<volatile std::uint32_t*>(0xE000ED88) |= 0xFu << 20;
    asm volatile("dsb\n\tisb" ::: "memory");
    for (std::uint32_t *src = _sidata, *dst = _sdata; dst < _edata;) *dst++ = *src++;
    for (std::uint32_t* dst = _sbss; dst < _ebss;) *dst++ = 0;
    SystemInit();
    for (void (**ctor)() = __init_array_start; ctor < __init_array_end; ++ctor) (*ctor)();
    kairos_port_exit(kairos_app_main());
}

// SPDX-License-Identifier: MIT
// Startup of the QEMU Cortex-M boards, without a C library: the vector
// table, Reset_Handler (FPU enable, .data copy, .bss zero, the core clock,
// static constructors, main, exit) and weak defaults for every exception
// nobody else handles.
//
// The port (libkairos) defines PendSV_Handler and a weak SysTick_Handler;
// the board's semihosting.cpp defines HardFault_Handler. Everything else is
// a weak alias of Default_Handler that a firmware overrides with a strong
// definition.
#include "cortex_m.hpp"
#include "../common/start_main.hpp"

#include <kairos/detail/decimal.hpp>
#include <kairos/port.hpp>

#include "system_vectors.hpp"

#include <cstdint>

#ifndef KAIROS_BOARD_CPU_HZ
#  error "KAIROS_BOARD_CPU_HZ: the QEMU model's SysTick rate, set by the board's board.cmake"
#endif

extern "C" {
extern std::uint32_t _estack[];

[[noreturn]] void Reset_Handler();
void HardFault_Handler();
void SysTick_Handler();

// Default_Handler() reports an exception nobody handles and exits 96.
void Default_Handler() {
    std::uint32_t ipsr;
    asm volatile("mrs %0, ipsr" : "=r"(ipsr));
    char buf[11];
    *kairos::detail::put_decimal(buf, ipsr & 0x1FFu) = '\0';
    kairos::port::console_write("kairos: unexpected exception ");
    kairos::port::console_write(buf);
    kairos::port::console_write("\n");
    kairos_port_exit(96);
}

#define KAIROS_WEAK_HANDLER(name) void name() __attribute__((weak, alias("Default_Handler")))
KAIROS_WEAK_HANDLER(NMI_Handler);
KAIROS_WEAK_HANDLER(MemManage_Handler);
KAIROS_WEAK_HANDLER(BusFault_Handler);
#if !defined(__ARM_ARCH_8M_MAIN__) && !defined(__ARM_ARCH_8_1M_MAIN__)
KAIROS_WEAK_HANDLER(UsageFault_Handler);  // ARMv8-M mainline: the port's weak one
#endif
KAIROS_WEAK_HANDLER(SVC_Handler);
KAIROS_WEAK_HANDLER(DebugMon_Handler);
KAIROS_WEAK_HANDLER(PendSV_Handler);
KAIROS_WEAK_HANDLER(IRQ0_Handler);
KAIROS_WEAK_HANDLER(IRQ1_Handler);
KAIROS_WEAK_HANDLER(IRQ2_Handler);
KAIROS_WEAK_HANDLER(IRQ3_Handler);
#undef KAIROS_WEAK_HANDLER
}

namespace {
using vector = void (*)();
constexpr int irq_count = 32;  // the table covers IRQ0..31 (NVIC_ISER0)
}  // namespace

// The vector table: initial SP, then the 15 system exceptions, then IRQs.
extern "C" __attribute__((section(".isr_vector"), used)) const vector kairos_vectors[16 + irq_count] = {
    KAIROS_CORTEX_M_SYSTEM_VECTORS(_estack),
    IRQ0_Handler,
    IRQ1_Handler,
    IRQ2_Handler,
    IRQ3_Handler,
    // IRQ4..31: Default_Handler (not referenced by any test).
    Default_Handler, Default_Handler, Default_Handler, Default_Handler, Default_Handler,
    Default_Handler, Default_Handler, Default_Handler, Default_Handler, Default_Handler,
    Default_Handler, Default_Handler, Default_Handler, Default_Handler, Default_Handler,
    Default_Handler, Default_Handler, Default_Handler, Default_Handler, Default_Handler,
    Default_Handler, Default_Handler, Default_Handler, Default_Handler, Default_Handler,
    Default_Handler, Default_Handler, Default_Handler,
};

extern "C" void Reset_Handler() {
#if defined(__ARM_FP)
    // Grant full access to CP10/CP11 (the FPU) before any code may use it.
    *reinterpret_cast<volatile std::uint32_t*>(0xE000ED88) |= 0xFu << 20;
    asm volatile("dsb\n\tisb" ::: "memory");
#endif
    kairos_board_start_main<true>(KAIROS_BOARD_CPU_HZ);
}

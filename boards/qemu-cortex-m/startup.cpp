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

#if defined(KAIROS_BOARD_TIMER_IRQ)
// The board timer's alarm handler (board.hpp, "Board timer"; the board's
// driver, e.g. cmsdk_dualtimer.cpp).
extern "C" void kairos_board_timer_isr() noexcept;
#endif

namespace {
using vector = void (*)();
constexpr int irq_count = 32;  // the table covers IRQ0..31 (NVIC_ISER0)

// irq_vector(n) is IRQn's entry: the tests' IRQ0..3, the board timer's
// alarm, Default_Handler for the rest.
constexpr vector irq_vector(int n) {
#if defined(KAIROS_BOARD_TIMER_IRQ)
    static_assert(KAIROS_BOARD_TIMER_IRQ > 3 && KAIROS_BOARD_TIMER_IRQ < irq_count, "the tests own IRQ0..3");
    if (n == KAIROS_BOARD_TIMER_IRQ) return kairos_board_timer_isr;
#endif
    return n == 0 ? IRQ0_Handler : n == 1 ? IRQ1_Handler : n == 2 ? IRQ2_Handler : n == 3 ? IRQ3_Handler : Default_Handler;
}
}  // namespace

#define KAIROS_IRQ_VECTORS_8(n)                                                                       \
    irq_vector(n), irq_vector(n + 1), irq_vector(n + 2), irq_vector(n + 3), irq_vector(n + 4), \
        irq_vector(n + 5), irq_vector(n + 6), irq_vector(n + 7)

// The vector table: initial SP, then the 15 system exceptions, then IRQs.
extern "C" __attribute__((section(".isr_vector"), used)) const vector kairos_vectors[16 + irq_count] = {
    KAIROS_CORTEX_M_SYSTEM_VECTORS(_estack),
    KAIROS_IRQ_VECTORS_8(0), KAIROS_IRQ_VECTORS_8(8), KAIROS_IRQ_VECTORS_8(16), KAIROS_IRQ_VECTORS_8(24),
};
#undef KAIROS_IRQ_VECTORS_8

extern "C" void Reset_Handler() {
#if defined(__ARM_FP)
    // Grant full access to CP10/CP11 (the FPU) before any code may use it.
    *reinterpret_cast<volatile std::uint32_t*>(0xE000ED88) |= 0xFu << 20;
    asm volatile("dsb\n\tisb" ::: "memory");
#endif
    kairos_board_start_main<true>(KAIROS_BOARD_CPU_HZ);
}

// SPDX-License-Identifier: MIT
// Cortex-M specifics of the port beyond port.hpp and board.hpp: the time
// base and the register addresses shared by the port's sources and the
// boards' drivers. Firmware and tests may include this; the portable core
// never does. The time base counts the processor clock, whose rate the
// board sets with kairos::port::set_cpu_hz() (board.hpp): SysTick
// (CLKSOURCE = 1), or the board timer when the board has one (board.hpp,
// "Board timer"), which then takes SysTick's part in everything below.
#pragma once

#include <kairos/board.hpp>

#include <cstdint>

namespace kairos::cortex_m {

// System control space registers (ARMv6-M/ARMv7-M/ARMv8-M architecture manuals).
namespace reg {
inline volatile std::uint32_t& at(std::uintptr_t a) noexcept {
    return *reinterpret_cast<volatile std::uint32_t*>(a);
}
inline constexpr std::uintptr_t syst_csr = 0xE000E010;  // SysTick control and status
inline constexpr std::uintptr_t syst_rvr = 0xE000E014;  // SysTick reload value
inline constexpr std::uintptr_t syst_cvr = 0xE000E018;  // SysTick current value
inline constexpr std::uintptr_t nvic_iser = 0xE000E100;  // interrupt set-enable
inline constexpr std::uintptr_t nvic_ispr = 0xE000E200;  // interrupt set-pending
inline constexpr std::uintptr_t nvic_icpr = 0xE000E280;  // interrupt clear-pending
inline constexpr std::uintptr_t nvic_ipr = 0xE000E400;  // interrupt priority, 8 bits per IRQ
inline constexpr std::uintptr_t scb_icsr = 0xE000ED04;  // interrupt control and state
inline constexpr std::uintptr_t scb_shpr3 = 0xE000ED20;  // priorities of PendSV, SysTick
inline constexpr std::uintptr_t scb_shcsr = 0xE000ED24;  // system handler control and state
inline constexpr std::uintptr_t scb_cfsr = 0xE000ED28;  // configurable fault status
inline constexpr std::uint32_t icsr_pendstset = 1u << 26;  // SysTick exception pending
inline constexpr std::uint32_t shcsr_usgfaultena = 1u << 18;  // UsageFault enabled
inline constexpr std::uint32_t cfsr_stkof = 1u << 20;  // UFSR.STKOF (ARMv8-M): stack limit hit
}  // namespace reg

// set_irq_priority(irq, prio) sets external interrupt irq's 8-bit priority
// (0 most urgent; the core keeps only its implemented top bits). An
// interrupt that calls kairos needs prio >= KAIROS_MAX_SYSCALL_PRIO on
// ARMv7-M and ARMv8-M mainline (docs/porting.md, "Interrupt priorities").
// Word access: ARMv6-M has no byte access to the priority registers.
// Context: any; not atomic with another writer of the same register word.
inline void set_irq_priority(unsigned irq, std::uint8_t prio) noexcept {
    volatile std::uint32_t& w = reg::at(reg::nvic_ipr + 4 * (irq / 4));
    const unsigned shift = 8 * (irq % 4);
    w = (w & ~(0xFFu << shift)) | (std::uint32_t{prio} << shift);
}

// systick_start(period) (re)starts SysTick with an interrupt every `period`
// core cycles (1..2^24) and gives it the lowest priority. now_us() keeps
// counting across the restart. The SysTick handler extends the 24-bit
// counter to 64 bits and then calls the tick hook. The period is the
// periodic tick's: while neither the tick hook nor a ticker needs it, the
// kernel's idle programs longer periods up to its next deadline (tickless
// idle, docs/kernel.md). Context: thread.
void systick_start(std::uint32_t period_cycles) noexcept;

// set_tick_hook(f) makes the SysTick handler call f() after updating the
// time base (nullptr: none), and keeps the tick periodic while f is set.
// f runs in the SysTick interrupt. Context: any.
using tick_hook = void (*)();
void set_tick_hook(tick_hook f) noexcept;

// cycles() returns core cycles counted by SysTick (or the board timer)
// since the first systick_start() (started with a 1 ms period by the first
// call if needed).
std::uint64_t cycles() noexcept;

}  // namespace kairos::cortex_m

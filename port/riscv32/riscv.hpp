// SPDX-License-Identifier: MIT
// RV32 (machine mode) specifics of the port beyond port.hpp and board.hpp:
// the CLINT time base (mtime) and tick (mtimecmp), the software interrupt
// the port uses as PendSV (msip), and what the firmware must provide.
// Firmware and tests may include this; the portable core never does.
#pragma once

#include <kairos/board.hpp>

#include <cstdint>

#include "frame.hpp"

// mtime counts at the CLINT's timebase (10 MHz on QEMU's virt machine),
// whose rate the board sets with kairos::port::set_cpu_hz() (board.hpp): it
// is the rate of the core timer, which on RISC-V is not the core clock.
namespace kairos::riscv {

// cycles() returns mtime, the 64-bit CLINT timer (read as high, low, high
// until the high word is stable). Context: any.
std::uint64_t cycles() noexcept;

// tick_start(period) sets the period of the machine timer's periodic tick
// to `period` mtime ticks (>= 16), through mtimecmp, and enables the
// interrupt. Each tick calls the tick hook and fires due kairos::tickers.
// start_scheduler() and kairos::ticker set a 1 ms tick if none is set. The
// tick is periodic only while the tick hook is set, a ticker is armed or
// KAIROS_TICKLESS is off; otherwise (tickless idle, docs/kernel.md)
// mtimecmp holds the kernel's next deadline while it idles, and nothing
// while no deadline is ahead. Context: thread (or any, interrupts masked).
void tick_start(std::uint32_t period) noexcept;

// set_tick_hook(f) makes every tick call f() (nullptr: none), in the
// interrupt. Context: any.
using irq_hook = void (*)();
void set_tick_hook(irq_hook f) noexcept;

// set_soft_irq_hook(f) makes the machine software interrupt (msip, raised
// by port::request_switch()) call f() in interrupt context each time it is
// taken, before the switch it may carry (nullptr: none); also when the
// kernel's unmasking irq_restore_kernel() carries the request out as a call
// (kairos_riscv_switch(), trap.S), where f runs masked with in_isr() true,
// as in the interrupt. f must tell its own triggers from switch requests.
// Context: any.
void set_soft_irq_hook(irq_hook f) noexcept;

}  // namespace kairos::riscv

extern "C" {
// kairos_riscv_trap_entry is the port's trap entry (trap.S): the firmware
// points mtvec at it, direct mode (it is 4-byte aligned). Not callable from C.
void kairos_riscv_trap_entry();

// kairos_riscv_exception(mcause, frame) is called, in the trap (interrupts
// masked), for every synchronous exception, with mcause and the saved
// registers (frame.hpp). The firmware defines it (the tests report and exit
// 98). When it returns, the frame is restored and execution resumes at
// frame->mepc: the faulting instruction again, unless the handler advanced
// it.
void kairos_riscv_exception(std::uint32_t mcause, kairos::riscv::trap_frame* frame) noexcept;

// kairos_riscv_external_irq() handles the machine external interrupt
// (mie.MEIE, enabled by whoever sets up the interrupt controller: a PLIC, a
// vendor's interrupt matrix); called from the trap with interrupts masked.
// The port's weak default reports an interrupt nobody handles and panics.
void kairos_riscv_external_irq() noexcept;
}

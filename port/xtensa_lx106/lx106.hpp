// SPDX-License-Identifier: MIT
// Xtensa lx106 (ESP8266) specifics of the port beyond port.hpp: the exit
// used by tests under QEMU, the cycle counter, the CCOMPARE0 tick, the
// software interrupt and what the firmware's vectors must provide. Firmware
// and tests may include this; the portable core never does.
#pragma once

#include <kairos/board.hpp>

#include <cstdint>

#include "frame.hpp"

// CCOUNT counts the core clock (80 MHz on an ESP8266 at its default clock;
// the QEMU sim machine's model 40 MHz), whose rate the board sets with
// kairos::port::set_cpu_hz() (board.hpp).
namespace kairos::lx106 {

// ccount() reads the 32-bit cycle counter (special register CCOUNT).
inline std::uint32_t ccount() noexcept {
    std::uint32_t c;
    asm volatile("rsr %0, ccount" : "=r"(c));
    return c;
}

// cycles() returns CCOUNT extended to 64 bits. It must be called at least
// once per 2^32 cycles (53 s at 80 MHz) to see every wrap; the tick does
// that while it runs, and a tickless wait lasts at most 2^31 cycles. Context: any.
std::uint64_t cycles() noexcept;

// tick_start(period) sets the period of the CCOMPARE0 tick to `period`
// CCOUNT cycles (>= 64) and enables its interrupt. Each tick calls the tick
// hook, fires due kairos::tickers and keeps cycles() current.
// start_scheduler() and kairos::ticker set a 1 ms tick if none is set. The
// tick is periodic only while the tick hook is set, a ticker is armed or
// KAIROS_TICKLESS is off; otherwise (tickless idle, docs/kernel.md)
// CCOMPARE0 holds the kernel's next deadline while it idles, at most 2^31
// cycles ahead (every CCOUNT wrap is seen). Context: thread (or any,
// interrupts masked).
void tick_start(std::uint32_t period_cycles) noexcept;

// set_tick_hook(f) makes every tick call f() (nullptr: none), in the
// interrupt. Context: any.
using irq_hook = void (*)();
void set_tick_hook(irq_hook f) noexcept;

// set_soft_irq_hook(f) makes the software interrupt (KAIROS_LX106_SOFT_IRQ,
// raised by port::request_switch()) call f() in interrupt context each
// time it is taken, before the switch it may carry (nullptr: none). f must
// tell its own triggers from switch requests. Context: any.
void set_soft_irq_hook(irq_hook f) noexcept;

}  // namespace kairos::lx106

extern "C" {
// kairos_lx106_user_vector is the port's level-1 interrupt and exception
// entry (switch.S). The firmware's user vector (VECBASE + 0x50) must do
// `wsr a0, excsave1` and jump to it. Not callable from C.
void kairos_lx106_user_vector();

// kairos_lx106_exception(cause, frame) is called, with PS.EXCM set, for
// every exception other than a level-1 interrupt, with EXCCAUSE and the
// saved registers (frame.hpp; nullptr from a vector that saves none). The
// firmware defines it (the tests report and exit 98). When it returns, the
// frame is restored and execution resumes at frame->pc: the faulting
// instruction again, unless the handler emulated it (e.g. a LoadStoreError
// on a byte read from flash) and advanced pc.
void kairos_lx106_exception(std::uint32_t cause, kairos::lx106::exception_frame* frame) noexcept;
}

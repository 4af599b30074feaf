// SPDX-License-Identifier: MIT
// kairos/board.hpp: the part of the port contract that only the
// microcontroller ports (cortex_m, xtensa_lx106) have, and the hooks a
// board provides. port.hpp holds the rest; between them every function a
// port, port/mcu_common or a board defines for the others is declared here
// once (docs/kernel.md, "Port and board hooks", lists them with who defines
// each). Firmware may include this; the portable core never does.
//
// Who defines what:
//   port     port/<arch>/: the core's own registers and timer
//   common   port/mcu_common/: shared by the MCU ports
//   board    boards/<name>/ or the firmware: console, exit, clock, startup
//   weak     a default in port/mcu_common that a strong definition replaces
#pragma once

#include <cstdint>

namespace kairos::port {

// set_cpu_hz(hz) tells the port the rate of its core timer's clock (Cortex-M:
// the processor clock SysTick counts, CMSIS SystemCoreClock; lx106: CCOUNT)
// in Hz, a whole number of MHz in [1 MHz, 65535 MHz]. Call it once, before
// the first now_us(), ticker or kernel::run() starts the tick; the board's
// startup does (QEMU boards: their model's rate). If nothing set it, starting
// the tick panics ("core clock not set"): there is no silent default. A call
// after the tick started, or an invalid rate, panics too. Defined by: port.
// Context: thread, before the tick starts.
void set_cpu_hz(std::uint32_t hz) noexcept;

// cpu_hz() returns the rate set_cpu_hz() set, 0 before. Defined by: port.
// Context: any.
std::uint32_t cpu_hz() noexcept;

// timer_interrupts() counts the core-timer interrupts taken since reset
// (SysTick, mtimecmp, CCOMPARE0): what tickless idle saves shows here.
// Wraps at 2^32. Defined by: port. Context: any.
std::uint32_t timer_interrupts() noexcept;

// console_write() (port.hpp) is the board's on MCUs: a UART, semihosting
// under QEMU. Weak default (common): output dropped.

}  // namespace kairos::port

extern "C" {

// kairos_tick() does the port's work for one core-timer interrupt: extends
// the time base, fires due kairos::tickers, runs the port's tick hook.
// Cortex-M: the body of SysTick_Handler. A firmware that defines its own
// SysTick_Handler (CMSIS, CubeMX, nrfx) calls kairos_tick() from it; without
// one, the port's weak SysTick_Handler does (with a board timer, below,
// SysTick does not run). lx106: called by the port's
// interrupt dispatch for CCOMPARE0. Defined by: port. Context: the core
// timer's interrupt only.
void kairos_tick() noexcept;

// kairos_usage_fault() (ARMv8-M mainline: Cortex-M33, M55) handles a
// UsageFault: on a stack-limit fault (a thread reached its PSPLIM) the
// kernel's overflow report and exit 97, otherwise the board's
// HardFault_Handler(). The port's weak UsageFault_Handler calls it; a
// firmware with its own UsageFault_Handler calls it from there. Defined by:
// port. Context: the UsageFault exception only.
void kairos_usage_fault() noexcept;

// kairos_mcu_tick_ensure() starts the core timer's periodic tick (1 ms) if it
// does not run yet, and keeps it periodic (no tickless idle) while a ticker
// is armed; kairos::ticker calls it when arming. Defined by: port.
// Context: thread.
void kairos_mcu_tick_ensure() noexcept;

// kairos_mcu_ticker_tick() fires due kairos::tickers and returns true while
// one is still armed (the port keeps its periodic tick); kairos_tick() calls
// it. Defined by: common (port/mcu_common/ticker.cpp), referenced weakly so
// that ticker.cpp is linked only by programs that use a ticker (null
// otherwise). Context: the core timer's interrupt.
bool kairos_mcu_ticker_tick() noexcept __attribute__((weak));

// kairos_idle_enter(deadline_us) and kairos_idle_exit() are the board's
// power hooks around the wait in port::idle(), interrupts masked.
// kairos_idle_enter() runs after the port programmed its timer for the
// kernel's next deadline (now_us() time; UINT64_MAX: none), right before
// WFI / waiti: a board may choose a deeper sleep there (Cortex-M:
// SCB->SCR.SLEEPDEEP, clock gating) when the deadline is far, provided the
// core timer keeps counting in that mode or the board restores the time
// itself. kairos_idle_exit() runs right after the core wakes, before the
// handler of the interrupt that woke it: restore clocks there. With the
// periodic tick kept (KAIROS_TICKLESS off, a tick hook, an armed ticker) the
// timer still wakes every tick. Weak defaults (common): nothing. Context:
// port::idle() only (the kernel's idle context or idle thread, masked).
void kairos_idle_enter(std::uint64_t deadline_us) noexcept;
void kairos_idle_exit() noexcept;

// Board timer (Cortex-M, optional): a board whose SysTick cannot time a long
// idle wait (24 bits, stopped in deep sleep) gives the port a free-running
// counter and a one-shot alarm instead, and the port then keeps its time
// base, periodic tick and tickless idle on them, never starting SysTick:
// with nothing due the alarm is armed only for the counter's wrap, at most
// 2^31 counts ahead. The counter counts at the rate set_cpu_hz() gave, so
// that cycles() and now_us() keep their units. The board defines:
//   kairos_board_timer_start()      starts the counter and enables the
//       alarm's interrupt at the lowest priority (masked by any BASEPRI
//       threshold, like SysTick). Once, from the port's first time read.
//   kairos_board_timer_count()      the counter, counting up, wrapping at
//       2^32.
//   kairos_board_timer_alarm(delta) one alarm interrupt `delta` counts
//       (>= 1) or a little later after the call, replacing any alarm armed
//       or pending: never earlier, so a wait on it never ends before its
//       deadline.
// and an alarm handler that acknowledges the alarm and calls
// kairos_board_timer_tick() (defined by: port, port/cortex_m/
// board_timer.cpp; context: that handler only). That call is what links
// the port's board timer code, which then replaces the SysTick time base;
// a board without one links none of it.
// Why: the counter never stops or reloads, so re-arming the alarm loses no
// time, and one alarm per deadline is all an idle kernel takes.
// Context of the three board functions: interrupts masked (the port's time
// reads and its alarm handler).
void kairos_board_timer_start() noexcept;
std::uint32_t kairos_board_timer_count() noexcept;
void kairos_board_timer_alarm(std::uint32_t delta) noexcept;
void kairos_board_timer_tick() noexcept;

// kairos_port_exit(code) ends the program with status `code`. QEMU boards:
// a semihosting exit, so ctest sees the code. Weak default (common): mask
// interrupts and wait forever (a real board keeps what the console shows;
// a board may reset instead). Never a breakpoint. Context: any.
[[noreturn]] void kairos_port_exit(int code) noexcept;

// kairos_port_panic() (port.hpp) on MCUs: weak default (common) writes the
// message with console_write() and calls kairos_port_exit(97), interrupts
// masked; a board or firmware may replace it (log to flash, reset).

// The __atomic_<op>_<N> functions GCC calls for read-modify-write on cores
// without compare-and-swap (ARMv6-M, lx106) are defined by common
// (port/mcu_common/atomic_irq.cpp) on the port's interrupt mask; the
// compiler declares them.

}  // extern "C"

// SPDX-License-Identifier: MIT
// port/framework_esp32: kairos on top of ESP-IDF, also under arduino-esp32
// (which is built on it). The framework owns the vectors, the timers, the
// interrupt levels and the scheduler (FreeRTOS, SMP on the dual-core
// chips); this port only borrows its clock (esp_timer_get_time()), its
// critical sections (a spinlock, below), its console (esp_rom_printf()),
// its abort (esp_system_abort()) and its task notifications (wake()).
// Rings, the deferred scheduler, tickers (ticker.cpp, on esp_timer) and
// the ESP8266 compat layer run on it; the kernel (threads) does not: the
// framework has its own scheduler.
//
// The masks are out of line (KAIROS_PORT_IRQ_INLINE 0), so a translation
// unit that includes kairos headers needs no FreeRTOS header, and there is
// one spinlock for the whole program, defined here.
//
// Producers on two cores (docs/esp32.md): the MPSC claim of mpsc_ring,
// circular_queue_mp and deferred is rmw_default (kairos/rmw.hpp), which
// follows KAIROS_HAS_CAS, i.e. whether the compiler has lock-free 32-bit
// compare-and-swap:
//   - ESP32 and ESP32-S3 (Xtensa LX6/LX7, S32C1I), the RISC-V chips with
//     the A extension: CAS. S32C1I is atomic across both cores on internal
//     RAM, not on PSRAM: rings shared between cores must not be placed in
//     external RAM (EXT_RAM_BSS_ATTR), which static objects are not unless
//     marked so.
//   - chips whose compiler has no inline CAS (ESP32-S2 without S32C1I,
//     ESP32-C3, RISC-V without A): rmw_masked<irq_section>, a load and a
//     store under irq_disable(); their __atomic_* library calls are
//     ESP-IDF's (newlib stdatomic.c).
// irq_disable() is a cross-core critical section either way, so the masked
// claim is also correct on the dual-core chips (a program may choose
// rmw_masked<> there), and every other kairos critical section (deferred's
// recurrent bookkeeping, the ticker table) excludes the other core too.
#include <kairos/config.hpp>
#include <kairos/detail/panic_message.hpp>
#include <kairos/port.hpp>

#include <cstdint>

#include "kairos_framework.hpp"

#include "esp_attr.h"
#include "esp_rom_sys.h"
#include "esp_system.h"
#include "esp_timer.h"
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"

namespace {

// The spinlock of every kairos critical section. Internal RAM (DRAM_ATTR):
// the spinlock's compare-and-set must work on it from both cores.
DRAM_ATTR portMUX_TYPE kairos_mux = portMUX_INITIALIZER_UNLOCKED;

}  // namespace

namespace kairos::port {

// now_us() is esp_timer_get_time(): microseconds since boot, 64-bit, the
// same on both cores. Callable from interrupts (the framework keeps it in
// IRAM).
KAIROS_ISR_FN std::uint64_t now_us() noexcept { return static_cast<std::uint64_t>(esp_timer_get_time()); }

// irq_disable() enters the framework's SMP critical section on kairos_mux:
// it masks this core's interrupts up to the level FreeRTOS-aware handlers
// use (configMAX_SYSCALL_INTERRUPT_PRIORITY; higher-level interrupts must
// not call kairos) and takes the spinlock, so the other core, in a task or
// an interrupt, waits at its own irq_disable(). portENTER_CRITICAL_SAFE
// picks the task or the ISR variant by xPortInIsrContext(), so one
// function serves both contexts. The returned state is 0 and means
// nothing: the framework keeps the nesting count (per core, in the
// spinlock), and nesting on one core is allowed. Context: any.
KAIROS_ISR_FN irq_state irq_disable() noexcept {
    portENTER_CRITICAL_SAFE(&kairos_mux);
    return 0;
}

// irq_restore(s) leaves one level of irq_disable(): the outermost one
// releases the spinlock and restores this core's interrupt level. s is
// ignored (see irq_disable()); calls must pair in LIFO order.
KAIROS_ISR_FN void irq_restore(irq_state) noexcept { portEXIT_CRITICAL_SAFE(&kairos_mux); }

// in_isr() is xPortInIsrContext(): this core runs an interrupt handler.
KAIROS_ISR_FN bool in_isr() noexcept { return xPortInIsrContext() != pdFALSE; }

const char* name() noexcept { return "framework_esp32"; }

// console_write(s) goes to the ROM's printf (the console UART as the
// framework set it up), which takes no lock and works before stdio does.
// Weak: an application that wants its own console defines its own.
__attribute__((weak)) void console_write(const char* s) noexcept { esp_rom_printf("%s", s); }

}  // namespace kairos::port

KAIROS_ISR_FN void kairos::framework::wake(void* task) noexcept {
    auto* const t = static_cast<TaskHandle_t>(task);
    if (xPortInIsrContext() != pdFALSE) {
        BaseType_t woken = pdFALSE;
        vTaskNotifyGiveFromISR(t, &woken);
        portYIELD_FROM_ISR(woken);  // switch at interrupt exit if t outranks the interrupted task
    } else {
        xTaskNotifyGive(t);
    }
}

// kairos_port_panic() prints kairos' message, then hands over to the
// framework's abort (which stops the other core, prints a backtrace and
// resets as configured).
extern "C" void kairos_port_panic(const char* what, const char* file, int line) noexcept {
    kairos::detail::write_panic_message(what, file, line);
    esp_system_abort(what);
}

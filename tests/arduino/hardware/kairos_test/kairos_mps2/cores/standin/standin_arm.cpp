// SPDX-License-Identifier: MIT
// The Cortex-M stand-in core (tests/arduino): not any vendor's Arduino
// core. It is the QEMU Cortex-M board (boards/qemu-cortex-m: vector table,
// Reset_Handler, semihosting console and exit, HardFault policy) plus
// Arduino's main(): setup(), then loop() forever, sleeping (wfi) between
// two loop() calls until the next interrupt (SysTick runs every 1 ms), so
// QEMU's -icount skips idle time. SysTick and PendSV are kairos' (the
// bare-metal Cortex-M port the library selects on Arm), and so is the
// clock behind millis()/micros(). Serial: tests/arduino/standin/serial.hpp;
// a "kairos: PASS"/"kairos: FAIL" line ends the run (0/1); more than 120 s
// of virtual time: exit 99.
#include <Arduino.h>

#include <kairos/board.hpp>
#include <kairos/port.hpp>

#define KAIROS_BOARD_CPU_HZ 25000000  // the mps2 model's SysTick (cmake/qemu-test.cmake)
#include "../../../../../../../boards/qemu-cortex-m/semihosting.cpp"
#include "../../../../../../../boards/qemu-cortex-m/startup.cpp"
#include "../../../../../../target/runtime_libc.inc"

StandinSerial Serial;

namespace {
constexpr std::uint64_t virtual_limit_us = 120000000;
}

extern "C" {

void standin_write(const char* s) { kairos::port::console_write(s); }
void standin_exit(int code) { kairos_port_exit(code); }

unsigned long micros(void) { return static_cast<unsigned long>(kairos::port::now_us()); }
unsigned long millis(void) { return static_cast<unsigned long>(kairos::port::now_us() / 1000u); }
void yield(void) {}

void delay(unsigned long ms) {
    const std::uint64_t end = kairos::port::now_us() + std::uint64_t{ms} * 1000u;
    while (kairos::port::now_us() < end) asm volatile("wfi");
}

void __cxa_pure_virtual() { kairos_port_panic("pure virtual call", __FILE__, __LINE__); }

int main() {
    kairos_mcu_tick_ensure();  // the 1 ms SysTick, as a core's millis() timer
    setup();
    for (;;) {
        loop();
        if (kairos::port::now_us() > virtual_limit_us) {
            kairos::port::console_write("stand-in core: virtual time limit\n");
            kairos_port_exit(99);
        }
        asm volatile("cpsid i\n\tdsb\n\twfi\n\tcpsie i" ::: "memory");  // a pending interrupt wakes it
    }
}

}  // extern "C"

// SPDX-License-Identifier: MIT
// Example for NUCLEO-F446RE: a producer thread passes a count through an
// spsc_ring to a printer thread once a second; the output goes to USART2
// (the ST-LINK virtual COM port, 115200 baud).
#include <kairos/detail/decimal.hpp>
#include <kairos/kernel/thread.hpp>
#include <kairos/port.hpp>
#include <kairos/spsc_ring.hpp>

#include <cstdint>

namespace {

namespace k = kairos::kernel;

kairos::spsc_ring<std::uint32_t, 8> ring;
alignas(8) unsigned char producer_stack[2048];
alignas(8) unsigned char printer_stack[2048];
k::pid printer_pid = 0;

void producer(void*) {
    for (std::uint32_t n = 1;; ++n) {
        k::sleep_us(1000000);
        if (ring.try_push(n)) k::wakeup(printer_pid);
    }
}

void printer(void*) {
    for (;;) {
        std::uint32_t n;
        while (ring.try_pop(n)) {
            char buf[11];
            *kairos::detail::put_decimal(buf, n) = '\0';
            kairos::port::console_write("kairos on nucleo-f446re: ");
            kairos::port::console_write(buf);
            kairos::port::console_write("\n");
        }
        k::sleep();
    }
}

}  // namespace

int main() {
    printer_pid = k::thread_create(printer_stack, sizeof printer_stack, 1, printer, nullptr, "printer");
    k::thread_create(producer_stack, sizeof producer_stack, 2, producer, nullptr, "producer");
    return k::run();
}

// SPDX-License-Identifier: MIT
// NUCLEO-F446RE clock and console (include/kairos/board.hpp hooks), by
// register writes (RM0390). Not run on hardware: CI builds it only.
//
// Clock: the reset default, the 16 MHz internal HSI oscillator, no PLL;
// SystemInit() reports it to kairos (SystemCoreClock, set_cpu_hz()). A
// firmware that starts the PLL (up to 180 MHz) calls set_cpu_hz() with its
// rate instead, before the tick starts.
// Console: USART2 on PA2 (AF7, the ST-LINK virtual COM port), 115200 8N1,
// transmit only, polled. Exit: wait until the last byte left, then stop with
// interrupts masked (no debugger needed; panic's message stays readable).
#include <kairos/board.hpp>
#include <kairos/port.hpp>

#include <cstdint>

namespace {

volatile std::uint32_t& reg(std::uintptr_t a) noexcept { return *reinterpret_cast<volatile std::uint32_t*>(a); }

constexpr std::uint32_t hsi_hz = 16000000;
constexpr std::uint32_t baud = 115200;

constexpr std::uintptr_t rcc = 0x40023800;
constexpr std::uintptr_t rcc_ahb1enr = rcc + 0x30;
constexpr std::uintptr_t rcc_apb1enr = rcc + 0x40;
constexpr std::uintptr_t gpioa = 0x40020000;
constexpr std::uintptr_t gpioa_moder = gpioa + 0x00;
constexpr std::uintptr_t gpioa_afrl = gpioa + 0x20;
constexpr std::uintptr_t usart2 = 0x40004400;
constexpr std::uintptr_t usart2_sr = usart2 + 0x00;
constexpr std::uintptr_t usart2_dr = usart2 + 0x04;
constexpr std::uintptr_t usart2_brr = usart2 + 0x08;
constexpr std::uintptr_t usart2_cr1 = usart2 + 0x0C;
constexpr std::uint32_t sr_tc = 1u << 6;
constexpr std::uint32_t sr_txe = 1u << 7;

void usart2_init(std::uint32_t pclk1_hz) noexcept {
    reg(rcc_ahb1enr) |= 1u << 0;   // GPIOAEN
    reg(rcc_apb1enr) |= 1u << 17;  // USART2EN
    const std::uint32_t settle = reg(rcc_apb1enr);  // read back: clocks on before first access
    (void)settle;
    reg(gpioa_moder) = (reg(gpioa_moder) & ~(3u << 4)) | (2u << 4);     // PA2: alternate function
    reg(gpioa_afrl) = (reg(gpioa_afrl) & ~(0xFu << 8)) | (7u << 8);     // PA2: AF7 = USART2_TX
    reg(usart2_brr) = (pclk1_hz + baud / 2) / baud;  // oversampling by 16: mantissa.fraction in one
    reg(usart2_cr1) = (1u << 13) | (1u << 3);        // UE, TE
}

}  // namespace

extern "C" {

std::uint32_t SystemCoreClock = hsi_hz;

void SystemInit() {
    SystemCoreClock = hsi_hz;  // APB1 prescaler 1 at reset: PCLK1 = HCLK
    kairos::port::set_cpu_hz(SystemCoreClock);
    usart2_init(SystemCoreClock);
}

void kairos_port_exit(int) noexcept {
    kairos::port::irq_disable();  // never restored
    while ((reg(usart2_sr) & sr_tc) == 0) {
    }
    for (;;) asm volatile("wfi");
}

}  // extern "C"

void kairos::port::console_write(const char* s) noexcept {
    for (; *s != '\0'; ++s) {
        if (*s == '\n') {
            while ((reg(usart2_sr) & sr_txe) == 0) {
            }
            reg(usart2_dr) = '\r';
        }
        while ((reg(usart2_sr) & sr_txe) == 0) {
        }
        reg(usart2_dr) = static_cast<unsigned char>(*s);
    }
}

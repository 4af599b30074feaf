// lx106 startup without a C library: zero .bss, run static constructors,
// call main() and exit with its result. QEMU's ELF loader (like the ESP8266
// boot ROM on hardware) places every loaded section at its run address, so
// .data needs no copy. Also the level-1 interrupt dispatch (vectors.S calls
// kairos_lx106_user_exception) and the CCOMPARE0 timer behind
// ktarget::periodic_irq_start().
#include "lx106.hpp"
#include "target.hpp"

#include <cstdint>

namespace {

constexpr std::uint32_t cause_level1_interrupt = 4;  // EXCCAUSE
constexpr std::uint32_t timer0_irq = 6;               // CCOMPARE0 (lx106 configuration)

std::uint32_t timer_period = 0;  // CCOUNT cycles between timer interrupts
void (*volatile timer_fn)() = nullptr;

std::uint32_t rsr_interrupt() {
    std::uint32_t v;
    asm volatile("rsr %0, interrupt" : "=r"(v));
    return v;
}
std::uint32_t rsr_intenable() {
    std::uint32_t v;
    asm volatile("rsr %0, intenable" : "=r"(v));
    return v;
}
void wsr_intenable(std::uint32_t v) { asm volatile("wsr %0, intenable\n\trsync" ::"r"(v) : "memory"); }
std::uint32_t rsr_ccompare0() {
    std::uint32_t v;
    asm volatile("rsr %0, ccompare0" : "=r"(v));
    return v;
}
// Writing CCOMPARE0 also acknowledges the timer interrupt.
void wsr_ccompare0(std::uint32_t v) { asm volatile("wsr %0, ccompare0\n\tesync" ::"r"(v) : "memory"); }

}  // namespace

extern "C" {
extern std::uint32_t _sbss[], _ebss[];
extern void (*__init_array_start[])();
extern void (*__init_array_end[])();
// main() itself may not be called in C++: reach it under another name.
int kairos_app_main() __asm__("main");

[[noreturn]] void kairos_lx106_start() {
    for (std::uint32_t* dst = _sbss; dst < _ebss;) *dst++ = 0;
    for (void (**ctor)() = __init_array_start; ctor < __init_array_end; ++ctor) (*ctor)();
    kairos_port_exit(kairos_app_main());
}

// kairos_lx106_user_exception(cause) handles a level-1 interrupt (the
// CCOMPARE0 timer) or reports any other exception and exits 98, like a
// Cortex-M HardFault. Runs with PS.EXCM set.
void kairos_lx106_user_exception(std::uint32_t cause) {
    if (cause != cause_level1_interrupt) {
        ktarget::print("kairos: exception, EXCCAUSE ");
        ktarget::print_u64(cause);
        ktarget::print("\n");
        kairos_port_exit(98);
    }
    const std::uint32_t pending = rsr_interrupt() & rsr_intenable();
    if (pending & (1u << timer0_irq)) {
        // Next deadline one period after the last; if this handler ran so
        // late that it already passed, one period from now (else the timer
        // would wait for CCOUNT to wrap, 2^32 cycles).
        std::uint32_t next = rsr_ccompare0() + timer_period;
        if (static_cast<std::int32_t>(next - kairos::lx106::ccount()) < 16) {
            next = kairos::lx106::ccount() + timer_period;
        }
        wsr_ccompare0(next);
        if (void (*const f)() = timer_fn) f();
    }
}
}

void ktarget::periodic_irq_start(std::uint32_t period_us, void (*fn)()) noexcept {
    const kairos::port::irq_state s = kairos::port::irq_disable();
    timer_fn = fn;
    timer_period = period_us * (kairos::lx106::cpu_hz / 1000000u);
    wsr_ccompare0(kairos::lx106::ccount() + timer_period);
    wsr_intenable(rsr_intenable() | (1u << timer0_irq));
    kairos::port::irq_restore(s);
}

void ktarget::periodic_irq_stop() noexcept {
    const kairos::port::irq_state s = kairos::port::irq_disable();
    wsr_intenable(rsr_intenable() & ~(1u << timer0_irq));
    timer_fn = nullptr;
    kairos::port::irq_restore(s);
}

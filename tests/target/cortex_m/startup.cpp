// Cortex-M startup without a C library: the vector table, Reset_Handler
// (FPU enable, .data copy, .bss zero, static constructors, main, exit) and
// weak defaults for every exception the port does not handle.
//
// The port (libkairos) defines SysTick_Handler and HardFault_Handler; they
// are referenced here, so the linker always pulls them in. Everything else
// is a weak alias of Default_Handler that a firmware (or a later port object
// such as the PendSV switch) overrides with a strong definition.
#include "cortex_m.hpp"
#include "target.hpp"

#include <cstdint>

extern "C" {
extern std::uint32_t _sidata[], _sdata[], _edata[], _sbss[], _ebss[], _estack[];
extern void (*__init_array_start[])();
extern void (*__init_array_end[])();
// main() itself may not be called in C++: reach it under another name.
int kairos_app_main() __asm__("main");

[[noreturn]] void Reset_Handler();
void HardFault_Handler();
void SysTick_Handler();

// Default_Handler() reports an exception nobody handles and exits 96.
void Default_Handler() {
    std::uint32_t ipsr;
    asm volatile("mrs %0, ipsr" : "=r"(ipsr));
    ktarget::print("kairos: unexpected exception ");
    ktarget::print_u64(ipsr & 0x1FFu);
    ktarget::print("\n");
    kairos_port_exit(96);
}

#define KAIROS_WEAK_HANDLER(name) void name() __attribute__((weak, alias("Default_Handler")))
KAIROS_WEAK_HANDLER(NMI_Handler);
KAIROS_WEAK_HANDLER(MemManage_Handler);
KAIROS_WEAK_HANDLER(BusFault_Handler);
KAIROS_WEAK_HANDLER(UsageFault_Handler);
KAIROS_WEAK_HANDLER(SVC_Handler);
KAIROS_WEAK_HANDLER(DebugMon_Handler);
KAIROS_WEAK_HANDLER(PendSV_Handler);
KAIROS_WEAK_HANDLER(IRQ0_Handler);
KAIROS_WEAK_HANDLER(IRQ1_Handler);
KAIROS_WEAK_HANDLER(IRQ2_Handler);
KAIROS_WEAK_HANDLER(IRQ3_Handler);
#undef KAIROS_WEAK_HANDLER
}

namespace {
using vector = void (*)();
constexpr int irq_count = 32;  // the table covers IRQ0..31 (NVIC_ISER0)
}  // namespace

// The vector table: initial SP, then the 15 system exceptions, then IRQs.
extern "C" __attribute__((section(".isr_vector"), used)) const vector kairos_vectors[16 + irq_count] = {
    reinterpret_cast<vector>(_estack),
    Reset_Handler,
    NMI_Handler,
    HardFault_Handler,
    MemManage_Handler,
    BusFault_Handler,
    UsageFault_Handler,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    SVC_Handler,
    DebugMon_Handler,
    nullptr,
    PendSV_Handler,
    SysTick_Handler,
    IRQ0_Handler,
    IRQ1_Handler,
    IRQ2_Handler,
    IRQ3_Handler,
    // IRQ4..31: Default_Handler (not referenced by any test).
    Default_Handler, Default_Handler, Default_Handler, Default_Handler, Default_Handler,
    Default_Handler, Default_Handler, Default_Handler, Default_Handler, Default_Handler,
    Default_Handler, Default_Handler, Default_Handler, Default_Handler, Default_Handler,
    Default_Handler, Default_Handler, Default_Handler, Default_Handler, Default_Handler,
    Default_Handler, Default_Handler, Default_Handler, Default_Handler, Default_Handler,
    Default_Handler, Default_Handler, Default_Handler,
};

extern "C" void Reset_Handler() {
#if defined(__ARM_FP)
    // Grant full access to CP10/CP11 (the FPU) before any code may use it.
    *reinterpret_cast<volatile std::uint32_t*>(0xE000ED88) |= 0xFu << 20;
    asm volatile("dsb\n\tisb" ::: "memory");
#endif
    for (std::uint32_t *src = _sidata, *dst = _sdata; dst < _edata;) *dst++ = *src++;
    for (std::uint32_t* dst = _sbss; dst < _ebss;) *dst++ = 0;
    for (void (**ctor)() = __init_array_start; ctor < __init_array_end; ++ctor) (*ctor)();
    kairos_port_exit(kairos_app_main());
}

void ktarget::periodic_irq_start(std::uint32_t period_us, void (*fn)()) noexcept {
    kairos::cortex_m::set_tick_hook(fn);
    kairos::cortex_m::systick_start(period_us * (kairos::cortex_m::cpu_hz / 1000000u));
}

void ktarget::periodic_irq_stop() noexcept { kairos::cortex_m::set_tick_hook(nullptr); }

// Kernel scenarios (tests/scenarios/kernel_scenarios.hpp, RIOT's tests/core
// ported) on the Cortex-M PendSV port: priorities, yield, sleep, mutexes
// with inheritance, msg, flags, thread flood, stack high-water, idle thread,
// registers across switches. The interrupt the ISR scenarios raise is a
// software-pended NVIC IRQ0 whose handler is the scenario's isr_entry();
// sleeping relies on SysTick waking port::idle().
#include "cortex_m.hpp"

#ifndef KAIROS_SCENARIO_STACK
#  define KAIROS_SCENARIO_STACK (6 * 1024)  // stack_high_water uses 4 KiB
#endif
#include "kernel_scenarios.hpp"
#include "runner.hpp"

namespace ks = scenarios::kernel;

extern "C" void IRQ0_Handler() { ks::isr_entry(); }

namespace {

// trigger() pends IRQ0; it runs before trigger() returns unless masked.
void trigger() {
    namespace reg = kairos::cortex_m::reg;
    reg::at(reg::nvic_iser) = 1u;
    reg::at(reg::nvic_ispr) = 1u;
    asm volatile("dsb\n\tisb" ::: "memory");
}

void isr_wakes_higher() { ks::isr_wakes_higher(trigger); }
void flags_from_isr() { ks::flags_from_isr(trigger); }
void msg_exchange() { ks::msg_exchange(trigger); }
void inversion_inherit() { ks::priority_inversion(true); }
void inversion_plain() { ks::priority_inversion(false); }

#if defined(__ARM_FP)
namespace k = kairos::kernel;

// fpu_callee_saved_survive_switches: two threads fill s16-s31 with their own
// pattern, yield to each other many times, and read the registers back. The
// switch must save and restore them (lazy FPU: EXC_RETURN bit 4 told PendSV
// the thread has an FP context).
unsigned fpu_errors;
void fpu_thread(void* arg) {
    const auto base = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(arg));
    std::uint32_t want[16], got[16];
    for (std::uint32_t i = 0; i < 16; ++i) want[i] = base * 0x01010101u + i * 0x1000u;
    asm volatile("vldmia %0, {s16-s31}" ::"r"(want)
                 : "s16", "s17", "s18", "s19", "s20", "s21", "s22", "s23", "s24", "s25", "s26",
                   "s27", "s28", "s29", "s30", "s31", "memory");
    for (int i = 0; i < 200; ++i) k::yield();
    asm volatile("vstmia %0, {s16-s31}" ::"r"(got) : "memory");
    for (int i = 0; i < 16; ++i) fpu_errors += got[i] != want[i];
}
void fpu_callee_saved_survive_switches() {
    ks::begin();
    fpu_errors = 0;
    ks::spawn(7, fpu_thread, reinterpret_cast<void*>(1));
    ks::spawn(7, fpu_thread, reinterpret_cast<void*>(2));
    ks::finish();
    KT_CHECK_EQ(fpu_errors, 0u);
}

// fpu_caller_saved_survive_isr: a thread holds values in s0-s15 while an
// interrupt that uses the FPU runs; lazy stacking (FPCCR.LSPEN) must
// preserve them in the thread's extended frame.
void isr_clobbers_fpu() {
    static const std::uint32_t junk[16] = {};
    asm volatile("vldmia %0, {s0-s15}" ::"r"(junk)
                 : "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "s12",
                   "s13", "s14", "s15", "memory");
}
void fpu_caller_saved_survive_isr() {
    ks::begin();
    ks::isr_body = isr_clobbers_fpu;
    std::uint32_t want[16], got[16];
    for (std::uint32_t i = 0; i < 16; ++i) want[i] = 0x3F800000u + i;  // 1.0f and neighbours
    namespace reg = kairos::cortex_m::reg;
    reg::at(reg::nvic_iser) = 1u;
    // One asm block: nothing the compiler emits can touch s0-s15 between the
    // load, the interrupt (pended by the str, taken at the isb) and the store.
    asm volatile(
        "vldmia %[w], {s0-s15}\n\t"
        "str    %[one], [%[ispr]]\n\t"
        "dsb\n\t"
        "isb\n\t"
        "vstmia %[g], {s0-s15}"
        :
        : [w] "r"(want), [g] "r"(got), [one] "r"(1u), [ispr] "r"(reg::nvic_ispr)
        : "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "s12", "s13",
          "s14", "s15", "memory");
    ks::isr_body = nullptr;
    unsigned errors = 0;
    for (int i = 0; i < 16; ++i) errors += got[i] != want[i];
    KT_CHECK_EQ(errors, 0u);
}
#endif

}  // namespace

int main() {
    static const ktarget::test_case cases[] = {
        {"priority_order", ks::priority_order},
        {"create_preempts", ks::create_preempts},
        {"change_priority", ks::change_priority},
        {"yield_vs_yield_higher", ks::yield_vs_yield_higher},
        {"sleep_and_wakeup", ks::sleep_and_wakeup},
        {"isr_wakes_higher", isr_wakes_higher},
        {"flags_from_isr", flags_from_isr},
        {"mutex_order_and_handoff", ks::mutex_order_and_handoff},
        {"mutex_trylock", ks::mutex_trylock},
        {"priority_inversion_inherit", inversion_inherit},
        {"priority_inversion_plain_mutex_inverts", inversion_plain},
        {"inheritance_nested_and_handoff", ks::inheritance_nested_and_handoff},
        {"msg_exchange", msg_exchange},
        {"thread_flood", ks::thread_flood},
        {"bad_input", ks::bad_input},
#if !defined(__ARM_ARCH_6M__)  // needs a 6 KiB stack: not in the microbit's RAM
        {"stack_high_water", ks::stack_high_water},
#endif
        {"idle_thread_hook", ks::idle_thread_hook},
        {"registers_survive_switches", ks::registers_survive_switches},
#if defined(__ARM_FP)
        {"fpu_callee_saved_survive_switches", fpu_callee_saved_survive_switches},
        {"fpu_caller_saved_survive_isr", fpu_caller_saved_survive_isr},
#endif
    };
    return ktarget::run(cases);
}

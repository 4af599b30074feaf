// SPDX-License-Identifier: MIT
// Kernel scenarios (tests/scenarios/kernel_scenarios.hpp, RIOT's tests/core
// ported) on the Cortex-M PendSV port and the lx106 port: priorities,
// yield, sleep, mutexes with inheritance, msg, flags, thread flood, stack
// high-water, idle thread, a busy thread preempted from the timer
// interrupt, every register across preemption (lx106, RV32), FPU registers
// across an interrupt (register conformance of the switch itself:
// regs_target.cpp). The interrupt the ISR scenarios raise
// is a software-pended NVIC IRQ0 (lx106: the software interrupt, RV32:
// msip, each shared with the port's switch requests) whose handler is the scenario's
// isr_entry(); sleeping relies on the timer (SysTick, CCOMPARE0) waking
// port::idle().
#include "soft_irq.hpp"  // and the architecture header
#include "target.hpp"

#ifndef KAIROS_SCENARIO_STACK
#  define KAIROS_SCENARIO_STACK (6 * 1024)  // stack_high_water uses 4 KiB
#endif
#include "deadline_scenarios.hpp"
#include "kernel_misuse_scenarios.hpp"
#include "kernel_scenarios.hpp"
#include "runner.hpp"
#include "services_scenarios.hpp"
#include "timeslice_scenarios.hpp"

namespace ks = scenarios::kernel;

namespace k = kairos::kernel;

#if !defined(__XTENSA__) && !defined(__riscv)
extern "C" void IRQ0_Handler() { ks::isr_entry(); }
#endif

namespace {
// trigger() raises the test interrupt, whose handler is the scenario's
// isr_entry(); it runs before trigger() returns unless masked.
void trigger() { ktarget::pend_irq<ks::isr_entry>(0); }

void isr_wakes_higher() { ks::isr_wakes_higher(trigger); }
void flags_from_isr() { ks::flags_from_isr(trigger); }
void msg_exchange() { ks::msg_exchange(trigger); }
void inversion_inherit() { ks::priority_inversion(true); }
void inversion_plain() { ks::priority_inversion(false); }
void min_stack_thread_works() { ks::min_stack_thread_works(trigger); }
void sem_give_from_isr() { ks::sem_give_from_isr(trigger); }
void cv_signal_from_isr() { ks::cv_signal_from_isr(trigger); }
void queue_send_from_isr() { ks::queue_send_from_isr(trigger); }
void deadline_wakeup_from_isr() { ks::deadline_wakeup_from_isr(trigger); }

// timer_preempts_busy_thread: a thread that spins without entering the
// kernel is preempted by a higher-priority thread that the timer interrupt
// wakes (the switch is taken on interrupt exit); the spin stops only when
// that thread has run, and fails after a bound far above one timer period.
k::pid sleeper;
volatile bool woken_ran;
void timer_preempts_busy_thread() {
    ks::begin();
    woken_ran = false;
    sleeper = ks::spawn(3, [](void*) {
        k::sleep();
        woken_ran = true;
    });
    ks::spawn(8, [](void*) {
        ktarget::periodic_irq_start(1000, [] {
            if (k::state(sleeper) == k::thread_state::sleeping) (void)k::wakeup(sleeper);
        });
        std::uint32_t spins = 0;
        while (!woken_ran && spins < 10000000u) ++spins;  // the wake comes within ~1 ms: < 10^6 spins
        ktarget::periodic_irq_stop();
        KT_CHECK(woken_ran);
        KT_CHECK(spins > 0u);
    });
    ks::finish();
}

#if defined(__XTENSA__) || defined(__riscv)
// all_registers_survive_preemption: a thread holds its own pattern in every
// register it can inside one asm block that spins (never calling out) until
// a higher-priority thread, woken from the timer interrupt three times, has
// preempted it and clobbered the same registers with other values. The
// switch path saves every register, not only the callee-saved ones: a
// preempted thread may be anywhere. The two threads are per architecture
// (below); preempt_pattern() runs them.
k::pid clobberer;
}  // namespace
// Named in the asm below: no register is free there to pass their addresses.
extern "C" volatile std::uint32_t kt_clobber_runs;
volatile std::uint32_t kt_clobber_runs;
namespace {
volatile std::uint32_t& clobber_runs = kt_clobber_runs;

// preempt_pattern(clobber, pattern) runs pattern at priority 8 and clobber
// at 3, woken by the 1 ms timer, until clobber has run three times.
void preempt_pattern(void (*clobber)(void*), void (*pattern)(void*)) {
    ks::begin();
    clobber_runs = 0;
    clobberer = ks::spawn(3, clobber);
    ks::spawn(8, pattern);
    ktarget::periodic_irq_start(1000, [] {
        if (k::state(clobberer) == k::thread_state::sleeping) (void)k::wakeup(clobberer);
    });
    ks::finish();
    ktarget::periodic_irq_stop();
    KT_CHECK_EQ(clobber_runs, 3u);
}
#endif

#if defined(__XTENSA__)
// Xtensa: a0, a2-a13 and SAR hold the pattern; a14, a15 run the loop.
}  // namespace
extern "C" std::uint32_t kt_saved_regs[14];  // a0, a2-a13, SAR as read back after the spin
std::uint32_t kt_saved_regs[14];
namespace {
std::uint32_t (&saved_regs)[14] = kt_saved_regs;
void clobber_thread(void*) {
    while (clobber_runs < 3) {
        k::sleep();
        asm volatile(
            "movi a0, 0x5A5A\n\tmovi a2, -1\n\tmovi a3, -1\n\tmovi a4, -1\n\tmovi a5, -1\n\t"
            "movi a6, -1\n\tmovi a7, -1\n\tmovi a8, -1\n\tmovi a9, -1\n\tmovi a10, -1\n\t"
            "movi a11, -1\n\tmovi a12, -1\n\tmovi a13, -1\n\tmovi a14, -1\n\tmovi a15, -1\n\t"
            "movi a2, 31\n\twsr a2, sar" ::
                : "a0", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "a10", "a11", "a12", "a13",
                  "a14", "a15", "memory");
        clobber_runs = clobber_runs + 1;
    }
}
void pattern_thread(void*) {
    // a14: &clobber_runs, a15: scratch; a0, a2-a13: 0x100 + n; SAR: 7.
    asm volatile(
        "movi a0, 0x100\n\tmovi a2, 0x102\n\tmovi a3, 0x103\n\tmovi a4, 0x104\n\t"
        "movi a5, 0x105\n\tmovi a6, 0x106\n\tmovi a7, 0x107\n\tmovi a8, 0x108\n\t"
        "movi a9, 0x109\n\tmovi a10, 0x10a\n\tmovi a11, 0x10b\n\tmovi a12, 0x10c\n\t"
        "movi a13, 0x10d\n\tmovi a15, 7\n\twsr a15, sar\n\t"
        "movi a14, kt_clobber_runs\n"
        "1:\n\tmemw\n\tl32i a15, a14, 0\n\tbltui a15, 3, 1b\n\t"
        "movi a15, kt_saved_regs\n\t"
        "s32i a0, a15, 0\n\ts32i a2, a15, 4\n\ts32i a3, a15, 8\n\ts32i a4, a15, 12\n\t"
        "s32i a5, a15, 16\n\ts32i a6, a15, 20\n\ts32i a7, a15, 24\n\ts32i a8, a15, 28\n\t"
        "s32i a9, a15, 32\n\ts32i a10, a15, 36\n\ts32i a11, a15, 40\n\ts32i a12, a15, 44\n\t"
        "s32i a13, a15, 48\n\trsr a2, sar\n\ts32i a2, a15, 52" ::
            : "a0", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "a10", "a11", "a12", "a13", "a14",
          "a15", "memory");
}
void all_registers_survive_preemption() {
    preempt_pattern(clobber_thread, pattern_thread);
    KT_CHECK_EQ(saved_regs[0], 0x100u);
    for (std::uint32_t n = 2; n <= 13; ++n) KT_CHECK_EQ(saved_regs[n - 1], 0x100u + n);
    KT_CHECK_EQ(saved_regs[13], 7u);
}
#endif

#if defined(__riscv)
// RISC-V: ra, t0-t4, s0-s11 and a0-a7 (every register but sp, gp, tp and
// the two the loop needs, t5 and t6) hold the pattern; the trap saves the
// caller-saved ones, the switch the callee-saved ones.
}  // namespace
extern "C" std::uint32_t kt_saved_regs[32];  // xN at [N], as read back after the spin
std::uint32_t kt_saved_regs[32];
namespace {
std::uint32_t (&saved_regs)[32] = kt_saved_regs;
#  define KT_RV_ALL "ra", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5", "a6", \
      "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"
void clobber_thread(void*) {
    while (clobber_runs < 3) {
        k::sleep();
        asm volatile(
            "li x1, -1\n\tli x5, -1\n\tli x6, -1\n\tli x7, -1\n\tli x8, -1\n\tli x9, -1\n\t"
            "li x10, -1\n\tli x11, -1\n\tli x12, -1\n\tli x13, -1\n\tli x14, -1\n\tli x15, -1\n\t"
            "li x16, -1\n\tli x17, -1\n\tli x18, -1\n\tli x19, -1\n\tli x20, -1\n\tli x21, -1\n\t"
            "li x22, -1\n\tli x23, -1\n\tli x24, -1\n\tli x25, -1\n\tli x26, -1\n\tli x27, -1\n\t"
            "li x28, -1\n\tli x29, -1\n\tli x30, -1\n\tli x31, -1" ::
                : KT_RV_ALL, "memory");
        clobber_runs = clobber_runs + 1;
    }
}
void pattern_thread(void*) {
    // x31 (t6): &kt_clobber_runs, then &kt_saved_regs; x30 (t5): scratch;
    // x1 and x5-x29: 0x100 + N.
    asm volatile(
        "li x1, 0x101\n\tli x5, 0x105\n\tli x6, 0x106\n\tli x7, 0x107\n\tli x8, 0x108\n\t"
        "li x9, 0x109\n\tli x10, 0x10a\n\tli x11, 0x10b\n\tli x12, 0x10c\n\tli x13, 0x10d\n\t"
        "li x14, 0x10e\n\tli x15, 0x10f\n\tli x16, 0x110\n\tli x17, 0x111\n\tli x18, 0x112\n\t"
        "li x19, 0x113\n\tli x20, 0x114\n\tli x21, 0x115\n\tli x22, 0x116\n\tli x23, 0x117\n\t"
        "li x24, 0x118\n\tli x25, 0x119\n\tli x26, 0x11a\n\tli x27, 0x11b\n\tli x28, 0x11c\n\t"
        "li x29, 0x11d\n\t"
        "la x31, kt_clobber_runs\n"
        "1:\n\tlw x30, 0(x31)\n\tsltiu x30, x30, 3\n\tbnez x30, 1b\n\t"
        "la x31, kt_saved_regs\n\t"
        "sw x1, 4(x31)\n\tsw x5, 20(x31)\n\tsw x6, 24(x31)\n\tsw x7, 28(x31)\n\tsw x8, 32(x31)\n\t"
        "sw x9, 36(x31)\n\tsw x10, 40(x31)\n\tsw x11, 44(x31)\n\tsw x12, 48(x31)\n\t"
        "sw x13, 52(x31)\n\tsw x14, 56(x31)\n\tsw x15, 60(x31)\n\tsw x16, 64(x31)\n\t"
        "sw x17, 68(x31)\n\tsw x18, 72(x31)\n\tsw x19, 76(x31)\n\tsw x20, 80(x31)\n\t"
        "sw x21, 84(x31)\n\tsw x22, 88(x31)\n\tsw x23, 92(x31)\n\tsw x24, 96(x31)\n\t"
        "sw x25, 100(x31)\n\tsw x26, 104(x31)\n\tsw x27, 108(x31)\n\tsw x28, 112(x31)\n\t"
        "sw x29, 116(x31)" ::
            : KT_RV_ALL, "memory");
}
#  undef KT_RV_ALL
void all_registers_survive_preemption() {
    for (std::uint32_t& r : saved_regs) r = 0;
    preempt_pattern(clobber_thread, pattern_thread);
    KT_CHECK_EQ(saved_regs[1], 0x101u);
    for (std::uint32_t n = 5; n <= 29; ++n) KT_CHECK_EQ(saved_regs[n], 0x100u + n);
}
#endif

#if defined(__ARM_FP)
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
    kairos::cortex_m::set_irq_priority(0, 0xFF);  // as trigger()
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

// The time-slicing scenarios' harness: a busy iteration only counts (the
// tick preempts it anywhere) and the periodic interrupt is the port's tick
// hook, after which the port's tick runs the slice check.
const ks::timeslice::slice_harness slice_harness{
    [] {},
    [](void (*fn)()) { ktarget::periodic_irq_start(1000, fn); },
    [] { ktarget::periodic_irq_stop(); },
};
#if KAIROS_TIME_SLICE_US
// The same without the periodic interrupt: no tick hook keeps the tick
// periodic, so the slices rotate only if the port starts its tick when the
// busy threads share their level (kairos_slice_tick_start()).
const ks::timeslice::slice_harness slice_harness_no_irq{
    [] {},
    [](void (*)()) {},
    [] {},
};
void slicing_shares_level() { ks::timeslice::slicing_shares_level(slice_harness); }
void slicing_starts_own_tick() { ks::timeslice::slicing_shares_level(slice_harness_no_irq); }
#else
void slicing_off_runs_first_until_yield() { ks::timeslice::slicing_off_runs_first_until_yield(slice_harness); }
#endif
void higher_priority_preempts() { ks::timeslice::higher_priority_preempts(slice_harness); }

int main() {
    static const ktarget::test_case cases[] = {
        {"priority_order", ks::priority_order},
        {"create_preempts", ks::create_preempts},
        {"change_priority", ks::change_priority},
        {"yield_vs_yield_higher", ks::yield_vs_yield_higher},
        {"yield_picks_best", ks::yield_picks_best},
        {"sleep_and_wakeup", ks::sleep_and_wakeup},
        {"isr_wakes_higher", isr_wakes_higher},
        {"flags_from_isr", flags_from_isr},
        {"mutex_order_and_handoff", ks::mutex_order_and_handoff},
        {"mutex_trylock", ks::mutex_trylock},
        {"priority_inversion_inherit", inversion_inherit},
        {"priority_inversion_plain_mutex_inverts", inversion_plain},
        {"inheritance_nested_and_handoff", ks::inheritance_nested_and_handoff},
        {"boosted_sender_served_first", ks::boosted_sender_served_first},
        {"inherit_handoff_recomputes_new_owner", ks::inherit_handoff_recomputes_new_owner},
        {"mutex_lock_for_times_out", ks::mutex_lock_for_times_out},
        {"mutex_lock_for_breaks_deadlock", ks::mutex_lock_for_breaks_deadlock},
        {"mutex_lock_for_served", ks::mutex_lock_for_served},
        {"msg_exchange", msg_exchange},
        {"thread_flood", ks::thread_flood},
        {"bad_input", ks::bad_input},
#if !defined(__ARM_ARCH_6M__)  // needs a 6 KiB stack: not in the microbit's RAM
        {"stack_high_water", ks::stack_high_water},
#endif
        {"idle_thread_hook", ks::idle_thread_hook},
        {"timer_preempts_busy_thread", timer_preempts_busy_thread},
        {"min_stack_thread_works", min_stack_thread_works},
        {"change_priority_refuses_idle", ks::change_priority_refuses_idle},
        {"stale_pid_is_refused", ks::stale_pid_is_refused},
        {"send_to_self_fails", ks::send_to_self_fails},
        {"receiver_exit_releases_senders", ks::receiver_exit_releases_senders},
        {"huge_timeouts_never_expire", ks::huge_timeouts_never_expire},
        // services_scenarios.hpp
        {"sem_counts_to_max", ks::sem_counts_to_max},
        {"sem_priority_order", ks::sem_priority_order},
        {"sem_handoff", ks::sem_handoff},
        {"sem_take_for", ks::sem_take_for},
        {"sem_timeout_races_give", ks::sem_timeout_races_give},
        {"sem_give_from_isr", sem_give_from_isr},
        {"cv_signal_priority_order", ks::cv_signal_priority_order},
        {"cv_broadcast", ks::cv_broadcast},
        {"cv_wait_for", ks::cv_wait_for},
        {"cv_reacquire_inherits", ks::cv_reacquire_inherits},
        {"cv_signal_from_isr", cv_signal_from_isr},
        {"queue_fifo_and_full", ks::queue_fifo_and_full},
        {"queue_movable_elements", ks::queue_movable_elements},
        {"queue_receivers_in_priority_order", ks::queue_receivers_in_priority_order},
        {"queue_senders_in_priority_order", ks::queue_senders_in_priority_order},
        {"queue_timeouts", ks::queue_timeouts},
        {"queue_timeout_races_send", ks::queue_timeout_races_send},
        {"queue_send_from_isr", queue_send_from_isr},
        // deadline_scenarios.hpp
        {"deadline_receive", ks::deadline_receive},
        {"deadline_send", ks::deadline_send},
        {"deadline_flags", ks::deadline_flags},
        {"deadline_races", ks::deadline_races},
        {"deadline_saturation", ks::deadline_saturation},
        {"deadline_wakeup_from_isr", deadline_wakeup_from_isr},
        {"timer_queue_random_order", ks::timer_queue_random_order},
        // timeslice_scenarios.hpp
#if KAIROS_TIME_SLICE_US
        {"slicing_shares_level", slicing_shares_level},
        {"slicing_starts_own_tick", slicing_starts_own_tick},
#else
        {"slicing_off_runs_first_until_yield", slicing_off_runs_first_until_yield},
#endif
        {"higher_priority_preempts", higher_priority_preempts},
#if defined(__XTENSA__) || defined(__riscv)
        {"all_registers_survive_preemption", all_registers_survive_preemption},
#endif
#if defined(__ARM_FP)
        {"fpu_caller_saved_survive_isr", fpu_caller_saved_survive_isr},
#endif
    };
    return ktarget::run(cases);
}

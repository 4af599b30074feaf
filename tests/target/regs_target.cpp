// SPDX-License-Identifier: MIT
// Register conformance on the microcontroller ports (tests/conformance has
// the host ports'): every register the ABI makes callee-saved survives the
// port's switch, voluntary (yield, block, wakeup of a higher-priority
// thread) and interrupt-driven (a timer interrupt wakes a higher-priority
// thread that preempts a spinning one), while the other thread holds other
// values in the same registers across its own switches.
//
// The assembly helpers (<arch>/regs.S) seed the registers and then either
// open the mask themselves (kt_regs_switch: the switch the kernel
// operation left pending, PendSV or the lx106 software interrupt, is taken
// there) or spin with the mask open (kt_regs_spin), and store the
// registers right after. No compiler-generated code runs between seeding
// and switch, so a register the switch drops is seen in any build.
//
// Cortex-M: r4-r11; on FPU cores also s16-s31 (callee-saved, PendSV's) and
// s0-s15 (caller-saved: the extended hardware frame keeps them across the
// preemption), for threads with and without an FP context in every
// pairing, which exercises both frame types (EXC_RETURN bit 4; the lazily
// stacked extended frame). lx106 (CALL0): a12-a15, a0 and a1. RV32
// (ILP32): s0-s11, ra and sp.
#if defined(__XTENSA__)
#  include "lx106.hpp"
#elif defined(__riscv)
#  include "riscv.hpp"
#else
#  include "cortex_m.hpp"
#endif
#include "target.hpp"

#ifndef KAIROS_SCENARIO_STACK
#  define KAIROS_SCENARIO_STACK 1024
#endif
#include "kernel_scenarios.hpp"
#include "runner.hpp"

#include <cstdint>

// seed: the registers' values (layout below); out: what came back.
// kt_regs_switch(seed, out, fpu): opens the mask, taking the pending switch.
// kt_regs_spin(seed, out, fpu, stop): spins, mask open, until *stop != 0.
// fpu != 0 (FPU builds): the s registers too, giving the thread an FP
// context. Both return with the mask open.
extern "C" void kt_regs_switch(const std::uint32_t* seed, std::uint32_t* out, unsigned fpu);
extern "C" void kt_regs_spin(const std::uint32_t* seed, std::uint32_t* out, unsigned fpu,
                             const volatile std::uint32_t* stop);

namespace {

namespace k = kairos::kernel;
namespace ks = scenarios::kernel;

#if defined(__XTENSA__)
// seed: a0 a12 a13 a14 a15; out adds a1 after (5) and before (6) the switch.
constexpr unsigned n_int = 5, n_fp = 0, n_out = 7;
const char* const reg_names[n_int] = {"a0", "a12", "a13", "a14", "a15"};
#elif defined(__riscv)
// seed: ra s0-s11; out adds sp after (13) and before (14) the switch.
constexpr unsigned n_int = 13, n_fp = 0, n_out = 15;
const char* const reg_names[n_int] = {"ra", "s0", "s1", "s2",  "s3",  "s4", "s5",
                                      "s6", "s7", "s8", "s9", "s10", "s11"};
#else
// seed: r4-r11, then s0-s31; out adds CONTROL (40, FPU builds).
constexpr unsigned n_int = 8;
#  if defined(__ARM_FP)
constexpr unsigned n_fp = 32, n_out = 41;
#  else
constexpr unsigned n_fp = 0, n_out = 8;
#  endif
const char* const reg_names[n_int] = {"r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11"};
#endif

// A thread's pattern: distinct per register and per thread. Counts the
// switches it was held across and the registers that came back changed.
struct pattern {
    std::uint32_t seed[n_int + n_fp];
    std::uint32_t out[n_out];
    unsigned fpu;
    unsigned switches;
    unsigned changed[n_int + n_fp];
    unsigned bad_frame;  // FPU builds: CONTROL.FPCA did not match fpu
    unsigned bad_sp;     // lx106, RV32: the stack pointer came back different
    void init(unsigned thread, bool use_fpu) {
        fpu = use_fpu ? 1u : 0u;
        switches = bad_frame = bad_sp = 0;
        for (unsigned i = 0; i < n_int + n_fp; ++i) {
            seed[i] = 0xA5000000u | thread << 16 | (0x111u * (i + 1));
            changed[i] = 0;
        }
    }
    void check() {
        ++switches;
        const unsigned n = fpu != 0 ? n_int + n_fp : n_int;
        for (unsigned i = 0; i < n; ++i) changed[i] += out[i] != seed[i];
#if defined(__XTENSA__) || defined(__riscv)
        bad_sp += out[n_int] != out[n_int + 1];
#elif defined(__ARM_FP)
        bad_frame += ((out[40] >> 2) & 1u) != fpu;  // CONTROL.FPCA: the thread has an FP context
#endif
    }
    void expect_intact(const char* what, unsigned min_switches) const {
        bool ok = switches >= min_switches && bad_frame == 0 && bad_sp == 0;
        for (unsigned i = 0; i < n_int + n_fp; ++i) ok = ok && changed[i] == 0;
        if (ok) return;
        ktarget::print("  ");
        ktarget::print(what);
        ktarget::print(": switches ");
        ktarget::print_u64(switches);
        ktarget::print(", frame type wrong ");
        ktarget::print_u64(bad_frame);
        ktarget::print(", sp wrong ");
        ktarget::print_u64(bad_sp);
        ktarget::print("\n");
        for (unsigned i = 0; i < n_int + n_fp; ++i) {
            if (changed[i] == 0) continue;
            ktarget::print("    changed: ");
            if (i < n_int) {
                ktarget::print(reg_names[i]);
            } else {
                ktarget::print("s");
                ktarget::print_u64(i - n_int);
            }
            ktarget::print(" in ");
            ktarget::print_u64(changed[i]);
            ktarget::print(" switches\n");
        }
        KT_CHECK(ok);
    }
};

// regs_switch(p, op): op() (a kernel operation) under the mask, so its
// switch request waits; the helper takes it with p held.
void regs_switch(pattern& p, void (*op)()) {
    const kairos::port::irq_state s = kairos::port::irq_disable();
    op();
    kt_regs_switch(p.seed, p.out, p.fpu);
    kairos::port::irq_restore(s);
    p.check();
}

pattern pa, pb;
k::pid holder;
k::pid woken;
volatile std::uint32_t stop;
unsigned woken_runs;

constexpr int yields = 20;

// Two threads of one priority yield to each other.
void yield_pair(bool fpu_a, bool fpu_b) {
    ks::begin();
    pa.init(1, fpu_a);
    pb.init(2, fpu_b);
    auto body = [](void* p) {
        for (int i = 0; i < yields; ++i) regs_switch(*static_cast<pattern*>(p), [] { k::yield(); });
    };
    ks::spawn(7, body, &pa);
    ks::spawn(7, body, &pb);
    ks::finish();
    pa.expect_intact("yielding thread a", yields);
    pb.expect_intact("yielding thread b", yields);
}

// The holder blocks (sleep); a lower-priority thread wakes it and is
// switched away from by each wakeup.
constexpr int blocks = 10;
void block_and_wakeup(bool fpu_a, bool fpu_b) {
    ks::begin();
    pa.init(3, fpu_a);
    pb.init(4, fpu_b);
    holder = ks::spawn(5, [](void*) {
        for (int i = 0; i < blocks; ++i) regs_switch(pa, [] { k::sleep(); });
    });
    ks::spawn(7, [](void*) {
        while (k::state(holder) == k::thread_state::sleeping) {
            regs_switch(pb, [] { (void)k::wakeup(holder); });
        }
    });
    ks::finish();
    pa.expect_intact("blocking thread", blocks);
    pb.expect_intact("waking thread", blocks);
}

// The holder spins with its pattern (kt_regs_spin); the timer interrupt
// wakes a higher-priority thread, which preempts it (the switch taken on
// the interrupt's exit), runs with its own pattern and blocks again. After
// its last run it tells the holder to stop.
constexpr unsigned preemptions = 3;
void timer_preemption(bool fpu_a, bool fpu_b) {
    ks::begin();
    pa.init(5, fpu_a);
    pb.init(6, fpu_b);
    stop = 0;
    woken_runs = 0;
    woken = ks::spawn(3, [](void*) {
        while (woken_runs < preemptions) {
            regs_switch(pb, [] { k::sleep(); });
            ++woken_runs;
        }
        stop = 1;
    });
    ks::spawn(8, [](void*) {
        kt_regs_spin(pa.seed, pa.out, pa.fpu, &stop);
        pa.check();
    });
    ktarget::periodic_irq_start(1000, [] {
        if (k::state(woken) == k::thread_state::sleeping) (void)k::wakeup(woken);
    });
    ks::finish();
    ktarget::periodic_irq_stop();
    KT_CHECK_EQ(woken_runs, preemptions);
    pa.expect_intact("preempted thread", 1);
    pb.expect_intact("timer-woken thread", preemptions);
}

void yield_int() { yield_pair(false, false); }
void block_int() { block_and_wakeup(false, false); }
void preempt_int() { timer_preemption(false, false); }
#if defined(__ARM_FP)
void yield_fp() { yield_pair(true, true); }
void yield_fp_int() { yield_pair(true, false); }
void block_fp() { block_and_wakeup(true, true); }
void block_int_fp() { block_and_wakeup(false, true); }
void preempt_fp() { timer_preemption(true, true); }
void preempt_fp_by_int() { timer_preemption(true, false); }
void preempt_int_by_fp() { timer_preemption(false, true); }
#endif

}  // namespace

int main() {
    static const ktarget::test_case cases[] = {
        {"regs_survive_yield", yield_int},
        {"regs_survive_block_and_wakeup", block_int},
        {"regs_survive_timer_preemption", preempt_int},
#if defined(__ARM_FP)
        {"fp_regs_survive_yield", yield_fp},
        {"fp_and_int_threads_yield", yield_fp_int},
        {"fp_regs_survive_block_and_wakeup", block_fp},
        {"int_thread_blocks_fp_thread_wakes", block_int_fp},
        {"fp_regs_survive_timer_preemption", preempt_fp},
        {"fp_thread_preempted_by_int_thread", preempt_fp_by_int},
        {"int_thread_preempted_by_fp_thread", preempt_int_by_fp},
#endif
    };
    return ktarget::run(cases);
}

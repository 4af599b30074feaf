// SPDX-License-Identifier: MIT
// Register conformance on the host ports: every callee-saved register the
// ABI names (regs.hpp) survives the port's switch routine when a thread
// yields, blocks, wakes a higher-priority thread and is switched away by
// an interrupt's request, while the other thread holds other values in the
// same registers across its own switches; and survives the direct switch
// (port::switch_to()) that yield() takes by itself on ports that have one,
// alone, mixed with the port's routine, and without the kernel.
//
// The kernel operation runs in C++ with the virtual mask set, so its switch
// request waits; regs_switch() then takes the switch the way irq_restore(0)
// would, except that the assembly helper (kt_regs_switch) seeds the
// registers and calls the switch routine itself. No compiler-generated
// frame lies between the seeding and the switch, so a register the switch
// routine drops is seen at any optimisation level (the executables are
// built at -O0 and -O2 against a kernel built the same way). The kernel
// library is built without KAIROS_ASSERTS: its blocking calls check that
// the mask was open on entry, and here it is deliberately already taken.
#include <gtest/gtest.h>

#include <kairos/kernel/thread.hpp>
#include <kairos/port.hpp>

#include <csignal>

#include "host_switch.hpp"
#include "kairos_host.hpp"
#include "kernel_scenarios.hpp"
#include "regs.hpp"

namespace {

namespace k = kairos::kernel;
namespace ks = scenarios::kernel;

// A thread's pattern: distinct per register and per thread, none a valid
// address (rbp and x29 are among them). Counts the switches it was held
// across and the registers that came back changed.
struct pattern {
    kt_reg seed[kt_regs_count];
    kt_reg out[kt_regs_count];
    unsigned switches = 0;
    unsigned changed[kt_regs_count] = {};
    explicit pattern(unsigned thread) {
        for (std::size_t i = 0; i < kt_regs_count; ++i) {
            seed[i] = 0xA5A5000000000000ull | kt_reg{thread} << 32 | (0x1111u * (i + 1));
            out[i] = 0;
        }
    }
    void expect_intact(const char* what, unsigned min_switches) const {
        EXPECT_GE(switches, min_switches) << what << ": too few switches through the helper";
        for (std::size_t i = 0; i < kt_regs_count; ++i) {
            EXPECT_EQ(changed[i], 0u) << what << ": " << kt_regs_names[i] << " changed across "
                                      << changed[i] << " of " << switches << " switches";
        }
    }
};

// regs_switch(p, op): op() (a kernel operation) under the mask, then the
// switch it requested taken through kt_regs_switch with p held, then what
// unmask() does after its switch (finish_switch(), the mask cleared).
void regs_switch(pattern& p, void (*op)()) {
    const kairos::port::irq_state s = kairos::port::irq_disable();
    op();
    auto& req = kairos::host::irq.switch_req;
    if (req.load(std::memory_order_relaxed) != 0) {  // relaxed: same thread, mask set
        req.store(0, std::memory_order_relaxed);     // relaxed: consumed as unmask() does
        kt_regs_switch(p.seed, p.out);
        kairos::host::finish_switch();
        ++p.switches;
        for (std::size_t i = 0; i < kt_regs_count; ++i) p.changed[i] += p.out[i] != p.seed[i];
    }
    kairos::port::irq_restore(s);
}

k::pid holder_pid;
k::pid scribbler_pid;

class register_conformance : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_TRUE(kairos::host::attach_signal(SIGUSR1, ks::isr_entry)); }
    void TearDown() override {
        ks::isr_body = nullptr;
        kairos::host::detach_signal(SIGUSR1);
    }
};

// Two threads of one priority yield to each other, each holding its pattern.
TEST_F(register_conformance, survive_yield) {
    static pattern a(1), b(2);
    a = pattern(1);
    b = pattern(2);
    ks::begin();
    auto body = [](void* p) {
        for (int i = 0; i < 50; ++i) regs_switch(*static_cast<pattern*>(p), [] { k::yield(); });
    };
    ks::spawn(7, body, &a);
    ks::spawn(7, body, &b);
    ks::finish();
    a.expect_intact("yielding thread a", 50);
    b.expect_intact("yielding thread b", 50);
}

// The holder blocks (sleep); a lower-priority thread holding its own
// pattern wakes it and is switched away from by that wakeup each time.
TEST_F(register_conformance, survive_block_and_wakeup_preemption) {
    static pattern a(3), b(4);
    a = pattern(3);
    b = pattern(4);
    ks::begin();
    holder_pid = ks::spawn(5, [](void*) {
        for (int i = 0; i < 20; ++i) regs_switch(a, [] { k::sleep(); });
    });
    ks::spawn(7, [](void*) {
        while (k::state(holder_pid) == k::thread_state::sleeping) {
            regs_switch(b, [] { (void)k::wakeup(holder_pid); });
        }
    });
    ks::finish();
    a.expect_intact("blocking thread", 20);
    b.expect_intact("waking thread", 20);
}

// An interrupt (SIGUSR1, raised by the holder with the mask open, so its
// handler runs at once) wakes a higher-priority thread; the switch it
// requested is taken at the holder's next kernel entry, as every host
// preemption is. The woken thread blocks again holding its own pattern.
TEST_F(register_conformance, survive_interrupt_preemption) {
    static pattern a(5), b(6);
    a = pattern(5);
    b = pattern(6);
    ks::begin();
    ks::isr_body = [] {
        if (k::state(scribbler_pid) == k::thread_state::sleeping) (void)k::wakeup(scribbler_pid);
    };
    scribbler_pid = ks::spawn(3, [](void*) {
        for (int i = 0; i < 3; ++i) regs_switch(b, [] { k::sleep(); });
    });
    ks::spawn(7, [](void*) {
        for (int i = 0; i < 3; ++i) {
            ASSERT_EQ(raise(SIGUSR1), 0);
            regs_switch(a, [] {});  // no operation: the interrupt's request is pending
        }
    });
    ks::finish();
    a.expect_intact("preempted thread", 3);
    b.expect_intact("interrupt-woken thread", 3);
}

// ---- direct switches (port::switch_to(), KAIROS_PORT_DIRECT_SWITCH) -----
// yield() with the mask open switches by itself through port::switch_to()
// on ports that have it, and through the port's routine elsewhere: either
// way every callee-saved register must survive the call, which
// kt_regs_call() checks with no compiler-generated frame around the seeding.

// regs_call(p, fn): fn() (a kernel call, mask open) with p held.
void regs_call(pattern& p, void (*fn)()) {
    kt_regs_call(p.seed, p.out, fn);
    ++p.switches;
    for (std::size_t i = 0; i < kt_regs_count; ++i) p.changed[i] += p.out[i] != p.seed[i];
}

// turns records which thread returned from each call, so a test can check
// that every call switched to the other thread and back (order, not time).
struct turn_log {
    char who[128] = {};
    unsigned n = 0;
    void add(char c) {
        if (n < sizeof who - 1) who[n++] = c;
    }
};
turn_log turns;

// Two threads of one priority yield to each other with the mask open: on a
// direct-switch port every switch is switch_to(), each resuming a frame
// switch_to() saved.
TEST_F(register_conformance, survive_direct_yield) {
    static pattern a(7), b(8);
    a = pattern(7);
    b = pattern(8);
    turns = turn_log{};
    ks::begin();
    ks::spawn(7, [](void*) {
        for (int i = 0; i < 40; ++i) {
            regs_call(a, [] { k::yield(); });
            turns.add('a');
        }
    });
    ks::spawn(7, [](void*) {
        for (int i = 0; i < 40; ++i) {
            regs_call(b, [] { k::yield(); });
            turns.add('b');
        }
    });
    ks::finish();
    a.expect_intact("directly yielding thread a", 40);
    b.expect_intact("directly yielding thread b", 40);
    // a's first yield runs b's first; from then on each yield is a switch.
    for (unsigned i = 0; i + 1 < turns.n; ++i) {
        EXPECT_NE(turns.who[i], turns.who[i + 1]) << "no switch at call " << i << ": " << turns.who;
    }
}

// One thread switches through the port's routine (kt_regs_switch, mask
// held, as unmask() does), the other yields with the mask open (directly
// where the port can): each resumes the frame the other kind of switch
// saved.
TEST_F(register_conformance, survive_mixed_direct_and_routine_switches) {
    static pattern a(9), b(10);
    a = pattern(9);
    b = pattern(10);
    ks::begin();
    ks::spawn(7, [](void*) {
        for (int i = 0; i < 40; ++i) regs_switch(a, [] { k::yield(); });
    });
    ks::spawn(7, [](void*) {
        for (int i = 0; i < 40; ++i) regs_call(b, [] { k::yield(); });
    });
    ks::finish();
    a.expect_intact("thread switched by the port's routine", 40);
    b.expect_intact("directly yielding thread", 40);
}

#if KAIROS_PORT_DIRECT_SWITCH
// port::switch_to() alone, without the kernel: the boot context and one
// context made by stack_init() switch back and forth, each holding its
// pattern across every switch, the first switch landing in the new
// context's entry.
namespace raw {
void* boot_ctx = nullptr;
void* other_ctx = nullptr;
pattern boot_p(11), other_p(12);
alignas(16) unsigned char stack[64 * 1024];
constexpr int rounds = 30;

// to_other / to_boot are fn() of kt_regs_call: the direct switch, entered
// as the kernel enters it (mask set; it returns unmasked, so the restore
// after it finds nothing to do).
void to_other() {
    const kairos::port::irq_state s = kairos::port::irq_disable();
    kairos::port::switch_to(&boot_ctx, other_ctx);
    kairos::port::irq_restore(s);
}
void to_boot() {
    const kairos::port::irq_state s = kairos::port::irq_disable();
    kairos::port::switch_to(&other_ctx, boot_ctx);
    kairos::port::irq_restore(s);
}

[[noreturn]] void other_entry(void*) {
    for (;;) regs_call(other_p, to_boot);  // boot never resumes it after its last round
}
}  // namespace raw

TEST_F(register_conformance, survive_raw_switch_to) {
    raw::boot_p = pattern(11);
    raw::other_p = pattern(12);
    raw::other_ctx = kairos::port::stack_init(raw::stack, sizeof raw::stack, raw::other_entry, nullptr);
    for (int i = 0; i < raw::rounds; ++i) regs_call(raw::boot_p, raw::to_other);
    raw::boot_p.expect_intact("boot context across switch_to", raw::rounds);
    // The other context's last call is still inside its switch back.
    EXPECT_EQ(raw::other_p.switches, unsigned{raw::rounds} - 1);
    raw::other_p.expect_intact("stack_init context across switch_to", raw::rounds - 1);
}
#endif

}  // namespace

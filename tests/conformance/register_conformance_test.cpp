// SPDX-License-Identifier: MIT
// Register conformance on the host ports: every callee-saved register the
// ABI names (regs.hpp) survives a yield, a block and a preemption by a
// timer-woken higher-priority thread, while the other thread holds other
// values in the same registers across its own switches. Built at -O0 and
// -O2 against a kernel built the same way (CMakeLists.txt), so the kernel's
// own frames between the helper and the switch vary as users' builds do.
#include <gtest/gtest.h>

#include <kairos/kernel/thread.hpp>
#include <kairos/port.hpp>

#include <csignal>
#include <memory>

#include "kairos_host.hpp"
#include "kernel_scenarios.hpp"
#include "regs.hpp"
#include "signal_timer.hpp"

namespace {

namespace k = kairos::kernel;
namespace ks = scenarios::kernel;

// A thread's pattern: distinct per register and per thread, none a valid
// address (rbp is among them).
struct pattern {
    kt_reg seed[kt_regs_count];
    kt_reg out[kt_regs_count];
    explicit pattern(unsigned thread) {
        for (std::size_t i = 0; i < kt_regs_count; ++i) {
            seed[i] = 0xA5A5000000000000ull | kt_reg{thread} << 32 | (0x1111u * (i + 1));
            out[i] = 0;
        }
    }
    void hold(void (*op)(void*)) { kt_regs_hold(seed, out, op, nullptr); }
    void expect_intact(const char* what) const {
        for (std::size_t i = 0; i < kt_regs_count; ++i) {
            EXPECT_EQ(out[i], seed[i]) << what << ": " << kt_regs_names[i] << " changed across the switch";
        }
    }
};

// The ops keep their state in globals, not in callee-saved registers of
// their own, so no frame of theirs saves and restores a seeded register.
int op_count;
k::pid holder_pid;
volatile unsigned runs;

class register_conformance : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_TRUE(kairos::host::attach_signal(SIGUSR1, ks::isr_entry)); }
    void TearDown() override { kairos::host::detach_signal(SIGUSR1); }
};

// Two threads of one priority yield to each other, each holding its pattern.
TEST_F(register_conformance, survive_yield) {
    static pattern a(1), b(2);
    ks::begin();
    auto body = [](void* p) {
        static_cast<pattern*>(p)->hold([](void*) {
            for (int i = 0; i < 50; ++i) k::yield();
        });
    };
    ks::spawn(7, body, &a);
    ks::spawn(7, body, &b);
    ks::finish();
    a.expect_intact("yielding thread a");
    b.expect_intact("yielding thread b");
}

// The holder blocks (sleep); a lower-priority thread holding its own
// pattern wakes it and is preempted by it at each wakeup.
TEST_F(register_conformance, survive_block_and_wakeup_preemption) {
    static pattern a(3), b(4);
    ks::begin();
    holder_pid = ks::spawn(5, [](void*) {
        a.hold([](void*) {
            for (op_count = 0; op_count < 20; ++op_count) k::sleep();
        });
    });
    ks::spawn(7, [](void*) {
        b.hold([](void*) {
            while (k::state(holder_pid) == k::thread_state::sleeping) (void)k::wakeup(holder_pid);
        });
    });
    ks::finish();
    a.expect_intact("blocking thread");
    b.expect_intact("waking thread");
}

// A POSIX timer (SIGUSR1, a kairos interrupt) wakes a higher-priority
// thread three times; it preempts the holder, which is spinning through
// kernel entries (where the host ports take a switch an interrupt asked
// for), and blocks again inside its own pattern.
TEST_F(register_conformance, survive_timer_preemption) {
    static pattern a(5), b(6);
    static k::pid scribbler;
    ks::begin();
    runs = 0;
    ks::isr_body = [] {
        if (k::state(scribbler) == k::thread_state::sleeping) (void)k::wakeup(scribbler);
    };
    scribbler = ks::spawn(3, [](void*) {
        while (runs < 3) {
            b.hold([](void*) {
                k::sleep();
                runs = runs + 1;
            });
            b.expect_intact("timer-woken thread");
        }
    });
    ks::spawn(7, [](void*) {
        a.hold([](void*) {
            while (runs < 3) kairos::port::irq_restore(kairos::port::irq_disable());
        });
    });
    // The rate only sets the duration.
    auto tick = std::make_unique<ktest::signal_timer>(ktest::this_tid(), SIGUSR1, 1000000);
    ASSERT_TRUE(tick->ok());
    ks::finish();
    tick.reset();
    ks::isr_body = nullptr;
    EXPECT_EQ(runs, 3u);
    a.expect_intact("preempted thread");
}

}  // namespace

// SPDX-License-Identifier: MIT
// ARMv8-M mainline: every thread runs with its own hardware stack limit.
// PSPLIM must read as the thread's stack bottom plus cortex_m::stack_guard
// (above the kernel's canary) whenever the thread runs, across yields and
// preemption by an interrupt, and the boot context keeps its own limit (0
// out of reset) when run() returns. The overflow itself is
// target_stack_overflow_exit_97.
#include "cortex_m.hpp"
#include "frame.hpp"
#include "kernel_scenarios.hpp"
#include "runner.hpp"
#include "target.hpp"

namespace ks = scenarios::kernel;
namespace k = kairos::kernel;

namespace {

std::uint32_t psplim() noexcept {
    std::uint32_t v;
    asm volatile("mrs %0, psplim" : "=r"(v));
    return v;
}

unsigned mismatches;
unsigned checks;

// want_of(i) is the limit of the thread on ks::stacks[i].
std::uint32_t want_of(unsigned i) noexcept {
    return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(ks::stacks[i]) +
                                      kairos::cortex_m::stack_guard);
}

void limit_thread(void* arg) {
    const auto i = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(arg));
    const std::uint32_t want = want_of(i);
    for (int n = 0; n < 50; ++n) {
        mismatches += psplim() != want;
        ++checks;
        k::yield();
    }
    mismatches += psplim() != want;
    ++checks;
}

void psplim_per_thread() {
    ks::begin();
    mismatches = checks = 0;
    const std::uint32_t boot = psplim();
    ks::spawn(7, limit_thread, reinterpret_cast<void*>(0));
    ks::spawn(7, limit_thread, reinterpret_cast<void*>(1));
    ks::spawn(7, limit_thread, reinterpret_cast<void*>(2));
    ks::finish();
    KT_CHECK_EQ(checks, 3u * 51u);
    KT_CHECK_EQ(mismatches, 0u);
    KT_CHECK_EQ(psplim(), boot);
}

// A thread spinning without entering the kernel is preempted by a
// higher-priority thread the timer interrupt wakes (switch on interrupt
// exit), many times; both keep their own limits throughout.
k::pid waker;
volatile unsigned woken;
void psplim_survives_preemption() {
    ks::begin();
    mismatches = checks = 0;
    woken = 0;
    waker = ks::spawn(3, [](void*) {
        while (woken < 20) {
            k::sleep();
            mismatches += psplim() != want_of(0);
            woken = woken + 1;
        }
    });
    ks::spawn(8, [](void*) {
        ktarget::periodic_irq_start(500, [] {
            if (k::state(waker) == k::thread_state::sleeping) (void)k::wakeup(waker);
        });
        std::uint32_t spins = 0;
        while (woken < 20 && spins < 50000000u) {
            mismatches += psplim() != want_of(1);
            ++spins;
        }
        ktarget::periodic_irq_stop();
        checks = spins;
    });
    ks::finish();
    KT_CHECK_EQ(woken, 20u);
    KT_CHECK(checks > 0u);
    KT_CHECK_EQ(mismatches, 0u);
}

}  // namespace

int main() {
    static const ktarget::test_case cases[] = {
        {"psplim_per_thread", psplim_per_thread},
        {"psplim_survives_preemption", psplim_survives_preemption},
    };
    return ktarget::run(cases);
}

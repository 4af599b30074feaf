// SPDX-License-Identifier: MIT
// Kernel misuse and edge cases (tests/scenarios/kernel_misuse_scenarios.hpp)
// on this build's port, plus the host-only death tests: a real stack
// overflow into memory below the stack, and a thread exiting while it
// holds a mutex. tests/port/ports.cmake builds it again for every other
// host port.
#include <gtest/gtest.h>

#include <kairos/kernel/mutex.hpp>
#include <kairos/kernel/thread.hpp>

#include <csignal>
#include <cstdint>
#include <string>

#include <sys/mman.h>
#include <unistd.h>

#include "host_kernel_fixture.hpp"
#include "kairos_host.hpp"
#include "kernel_misuse_scenarios.hpp"

namespace {

namespace ks = scenarios::kernel;
namespace k = kairos::kernel;

using ktest_host::trigger;

// The scenarios run on the port's virtual clock, as kernel_test's do: any
// sleep or timeout ends when every thread is blocked, never by wall time.
using kernel_misuse = ktest_host::kernel_fixture;

TEST_F(kernel_misuse, min_stack_thread_works) { ks::min_stack_thread_works(trigger); }
TEST_F(kernel_misuse, change_priority_refuses_idle) { ks::change_priority_refuses_idle(); }
TEST_F(kernel_misuse, stale_pid_is_refused) { ks::stale_pid_is_refused(); }
TEST_F(kernel_misuse, send_to_self_fails) { ks::send_to_self_fails(); }
TEST_F(kernel_misuse, receiver_exit_releases_senders) { ks::receiver_exit_releases_senders(); }
TEST_F(kernel_misuse, huge_timeouts_never_expire) { ks::huge_timeouts_never_expire(); }

// ---- a real overflow ----------------------------------------------------------

// The thread's stack sits in a mapping with writable memory below it (so
// the overflow itself does not fault) and an inaccessible page below that:
// whatever runs on the overflowed stack after the overflow and needs more
// than the writable gap faults there.
constexpr std::size_t gap = 4096;
unsigned char* overflow_lo = nullptr;

// dive(stop) recurses until its frame is below stop, writing every frame.
__attribute__((noinline)) int dive(const unsigned char* stop) {
    volatile unsigned char frame[128];
    for (auto& b : frame) b = 0x5C;
    if (static_cast<const unsigned char*>(__builtin_frame_address(0)) < stop) return frame[0];
    return dive(stop) + frame[1];
}

void overflow_for_real() {
    const long page = sysconf(_SC_PAGESIZE);
    const std::size_t size = (k::stack_min() + static_cast<std::size_t>(page) - 1) /
                             static_cast<std::size_t>(page) * static_cast<std::size_t>(page);
    void* map = mmap(nullptr, static_cast<std::size_t>(page) + gap + size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) return;
    mprotect(map, static_cast<std::size_t>(page), PROT_NONE);
    overflow_lo = static_cast<unsigned char*>(map) + page + gap;
    k::reset();
    const k::pid p = k::thread_create(overflow_lo, size, 5, [](void*) {
        (void)dive(overflow_lo - gap / 2);  // past the canary, half into the gap
        k::yield();
    }, nullptr, "deep");
    if (p <= 0) return;
    k::run_options o;
    o.return_when_idle = true;
    (void)k::run(o);
}

using kernel_misuse_death = kernel_misuse;
TEST_F(kernel_misuse_death, real_overflow_is_reported_not_a_fault) {
    EXPECT_DEATH(overflow_for_real(), "kairos: panic: stack overflow in thread 'deep'");
}

// ---- exiting with a mutex -------------------------------------------------------

void exit_holding(k::mutex::protocol p) {
    ks::begin();
    static k::mutex plain, inherit{k::mutex::protocol::inherit};
    static k::mutex* m;
    m = p == k::mutex::protocol::inherit ? &inherit : &plain;
    ks::spawn(5, [](void*) { m->lock(); }, nullptr, "holder");
    ks::finish();
}

TEST_F(kernel_misuse_death, exit_holding_plain_mutex_panics) {
    EXPECT_DEATH(exit_holding(k::mutex::protocol::none), "kairos: panic: thread exited holding a mutex");
}
TEST_F(kernel_misuse_death, exit_holding_inherit_mutex_panics) {
    EXPECT_DEATH(exit_holding(k::mutex::protocol::inherit),
                 "kairos: panic: thread exited holding a mutex");
}

}  // namespace

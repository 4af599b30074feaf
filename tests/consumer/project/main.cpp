// SPDX-License-Identifier: MIT
// A downstream program: uses the public headers and the compiled library
// only through the exported targets, as a user's project would. Each part
// returns its own non-zero code when it misbehaves, so a failure names it.
#include <kairos/bits.hpp>
#include <kairos/deferred.hpp>
#include <kairos/kernel/mutex.hpp>
#include <kairos/kernel/thread.hpp>
#include <kairos/mpsc_ring.hpp>
#include <kairos/port.hpp>
#include <kairos/spsc_ring.hpp>

#include <cstddef>
#include <cstdint>

#include "circular_queue/circular_queue.h"  // kairos::esp8266_compat, unqualified name

namespace {

// The port's interrupt masks: inline or out of line, they must link and
// nest as port.hpp says (0 = interrupts were enabled).
int check_port() {
    if (kairos::port::in_isr()) return 10;
    const kairos::port::irq_state outer = kairos::port::irq_disable();
    const kairos::port::irq_state inner = kairos::port::irq_disable();
    const bool masked_isr = kairos::port::in_isr();
    kairos::port::irq_restore(inner);
    kairos::port::irq_restore(outer);
    if (outer != 0 || inner == 0 || masked_isr) return 11;
    return kairos::port::now_us() != 0 || kairos::port::now_us() == 0 ? 0 : 12;
}

// bits.hpp asserts its preconditions (KAIROS_ASSERT): in a Debug consumer
// that references kairos_assert_failed whatever the library's build type.
int check_bits() {
    std::uint32_t w = 0x90u;
    const unsigned first = kairos::test_and_clear(w);
    if (!((first == 7 || first == 4) && kairos::popcount(w) == 1)) return 20;
    volatile std::uint32_t x = 0x80u;  // volatile: the assertion is evaluated at run time
    return kairos::msb(std::uint32_t{x}) == 7 ? 0 : 21;
}

int check_rings() {
    kairos::spsc_ring<int, 4> spsc;
    int v = 0;
    if (!spsc.try_push(42) || !spsc.try_pop(v) || v != 42) return 30;
    kairos::mpsc_ring<int, 4> mpsc;
    if (!mpsc.try_push(7) || !mpsc.try_push(8)) return 31;
    if (!mpsc.try_pop(v) || v != 7 || !mpsc.try_pop(v) || v != 8 || mpsc.try_pop(v)) return 32;
    circular_queue<int> q(3);
    return q.push(7) && q.pop() == 7 && q.available() == 0 ? 0 : 33;
}

kairos::deferred<4, 2> scheduler;  // constant-initialized, as firmware globals are

int check_deferred() {
    int ran = 0;
    if (!scheduler.schedule([&ran] { ran += 1; })) return 40;
    if (!scheduler.schedule([&ran] { ran += 10; })) return 41;
    return scheduler.run() == 2 && ran == 11 ? 0 : 42;
}

// Two threads hand a mutex back and forth under the kernel; the kernel's
// size configuration reaches this file through the exported definitions.
// Host stacks hold the CPU-sized signal frame (kairos::kernel::stack_min()).
alignas(kairos::port::stack_align) unsigned char stacks[2][65536];
kairos::kernel::mutex lock;
int turns = 0;

void worker(void*) {
    for (int i = 0; i < 3; ++i) {
        lock.lock();
        ++turns;
        lock.unlock();
        kairos::kernel::yield();
    }
}

int check_kernel() {
    static_assert(kairos::kernel::max_threads == KAIROS_MAX_THREADS);
    for (auto& s : stacks) {
        if (kairos::kernel::thread_create(s, sizeof s, 1, worker, nullptr, "worker") <= 0) return 50;
    }
    kairos::kernel::run_options o;
    o.return_when_idle = true;
    if (kairos::kernel::run(o) != 0) return 51;
    return turns == 6 ? 0 : 52;
}

}  // namespace

int main() {
    for (int (*check)() : {check_port, check_bits, check_rings, check_deferred, check_kernel}) {
        if (const int rc = check()) return rc;
    }
    return 0;
}

// SPDX-License-Identifier: MIT
// backoff.hpp: spin-then-yield waiting for the host stress tests and
// benches (tests/stress, bench/host/ring_bench.cpp). The VM has two vCPUs
// shared with other jobs: a pure spin could starve the other side of a
// queue for a whole time slice, a pure yield would measure the scheduler.
#pragma once

#include <kairos/config.hpp>

#include <thread>

namespace ktest {

// backoff<Spins>: each call spins once with kairos::cpu_relax() (x86 pause,
// AArch64 yield); the call after Spins of them yields the CPU and starts
// over. n counts the spins since the last yield.
template <int Spins>
struct backoff {
    int n = 0;
    void operator()() {
        if (++n <= Spins) {
            kairos::cpu_relax();
        } else {
            n = 0;
            std::this_thread::yield();
        }
    }
};

}  // namespace ktest

// SPDX-License-Identifier: MIT
// esp8266_linked_list_platform.hpp, host: what bench/baselines/
// esp8266_linked_list.cpp needs from its platform, interrupt_lock (its
// scope runs with interrupts masked) and cycles() / cycles_per_us() (the
// counter its polled timeouts read). Included by that file only.
#pragma once

#include <kairos/port.hpp>

#include <csignal>
#include <cstdint>

#include <pthread.h>

namespace baseline {
namespace {

// interrupt_lock masks every signal for its scope: the host equivalent of
// the ESP8266's InterruptLock (xt_rsil(15), previous level restored).
class interrupt_lock {
public:
    interrupt_lock() noexcept {
        sigset_t all;
        sigfillset(&all);
        pthread_sigmask(SIG_BLOCK, &all, &old_);
    }
    ~interrupt_lock() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }

private:
    sigset_t old_;
};

// cycles() is the host's analogue of the ESP8266 cycle counter (CCOUNT),
// which the "Fast" polled timeouts read: rdtsc / cntvct, both a few ns, so
// the baseline is not charged for the cost of clock_gettime.
std::uint64_t cycles() noexcept {
#if defined(__x86_64__) || defined(__i386__)
    return __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
    std::uint64_t v;
    asm volatile("mrs %0, cntvct_el0" : "=r"(v));
    return v;
#else
    return kairos::port::now_us();
#endif
}

// cycles_per_us() is measured once against the port clock (~2 ms).
std::uint64_t cycles_per_us() noexcept {
    static const std::uint64_t rate = [] {
        const std::uint64_t c0 = cycles(), t0 = kairos::port::now_us();
        while (kairos::port::now_us() - t0 < 2000) {
        }
        const std::uint64_t r = (cycles() - c0) / (kairos::port::now_us() - t0);
        return r == 0 ? std::uint64_t{1} : r;
    }();
    return rate;
}

}  // namespace
}  // namespace baseline

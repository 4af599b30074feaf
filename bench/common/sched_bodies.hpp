// SPDX-License-Identifier: MIT
// sched_bodies.hpp: RIOT's five scheduler benchmarks (tests/bench_*,
// RIOT's published figures) on the kairos kernel, written once for the host
// bench (bench/host/sched_bench.cpp: ns per iteration, callgrind Ir) and the
// target firmware (bench/target/bench_target.cpp: instructions per iteration
// under QEMU icount). RIOT's semantics: "main" at THREAD_PRIORITY_MAIN (7),
// the partner at MAIN - 1 (MAIN for yield_pingpong), one iteration = one
// operation of main (a ping-pong iteration is two switches and is not
// halved); only main's loop is timed, not thread creation or start-up.
//
// Freestanding: only the headers the core may use (the MCU builds have
// little more).
#pragma once

#include <kairos/kernel/msg.hpp>
#include <kairos/kernel/mutex.hpp>
#include <kairos/kernel/thread.hpp>
#include <kairos/kernel/thread_flags.hpp>

#include <cstddef>
#include <cstdint>

namespace kairos_bench {

namespace k = kairos::kernel;

// sched_bodies<Clock, StackSize> runs each benchmark as one kernel session.
// Clock supplies the timing hooks around main's loop: static void begin()
// and static void end(), called by main right before its first and right
// after its last operation. StackSize: bytes of each of the two thread
// stacks. Each function returns false if the kernel refused a thread or a
// thread stayed blocked (the bench is broken, its number meaningless).
template <class Clock, std::size_t StackSize>
class sched_bodies {
public:
    // nop(n) times n yield()s of main alone: each is one scheduling
    // decision and a switch back into the same thread.
    static bool nop(std::uint32_t n) {
        return session(n, [](void*) {
            Clock::begin();
            for (std::uint32_t i = 0; i < iters_; ++i) k::yield();
            Clock::end();
        });
    }

    // yield_pingpong(n) times n yield()s of main with the partner at MAIN:
    // each goes to the other thread and back.
    static bool yield_pingpong(std::uint32_t n) {
        return session(n, [](void*) {
            spawn_second([](void*) {
                while (!stop_) k::yield();
            }, main_prio);
            Clock::begin();
            for (std::uint32_t i = 0; i < iters_; ++i) k::yield();
            Clock::end();
            stop_ = true;
        });
    }

    // mutex_pingpong(n) times n unlock()s of a mutex that the partner at
    // MAIN - 1 keeps locking: each hands it over (the partner runs, locks
    // again, blocks). The partner unlocks it before it exits (exiting
    // while owning a mutex is a panic). The mutex lives in this frame,
    // which outlives the session.
    static bool mutex_pingpong(std::uint32_t n) {
        k::mutex m;
        mutex_ = &m;
        return session(n, [](void*) {
            mutex_->lock();
            spawn_second([](void*) {
                for (;;) {
                    mutex_->lock();
                    if (stop_) {
                        mutex_->unlock();
                        break;
                    }
                }
            }, main_prio - 1);
            Clock::begin();
            for (std::uint32_t i = 0; i < iters_; ++i) mutex_->unlock();
            Clock::end();
            stop_ = true;
            mutex_->unlock();
        });
    }

    // msg_pingpong(n) times n send()s of main to the partner at MAIN - 1,
    // which waits in receive(); a message of type 1 ends the partner.
    static bool msg_pingpong(std::uint32_t n) {
        return session(n, [](void*) {
            spawn_second([](void*) {
                k::msg m;
                do {
                    k::receive(m);
                } while (m.type == 0);
            }, main_prio - 1);
            k::msg m;
            Clock::begin();
            for (std::uint32_t i = 0; i < iters_; ++i) k::send(m, second_);
            Clock::end();
            m.type = 1;
            k::send(m, second_);
        });
    }

    // flags_pingpong(n) times n flags_set(0x1) of main to the partner at
    // MAIN - 1, which waits in flags_wait_any(); flag 0x2 ends the partner.
    static bool flags_pingpong(std::uint32_t n) {
        return session(n, [](void*) {
            spawn_second([](void*) {
                while ((k::flags_wait_any(0x3) & 0x2) == 0) {
                }
            }, main_prio - 1);
            Clock::begin();
            for (std::uint32_t i = 0; i < iters_; ++i) k::flags_set(second_, 0x1);
            Clock::end();
            k::flags_set(second_, 0x2);
        });
    }

protected:  // services_bodies.hpp adds benchmarks on the same sessions
    static constexpr unsigned main_prio = 7;  // RIOT THREAD_PRIORITY_MAIN

    // session(n, main_fn) runs main_fn as "main" at main_prio until every
    // thread has exited.
    static bool session(std::uint32_t n, void (*main_fn)(void*)) {
        k::reset();
        iters_ = n;
        stop_ = false;
        second_ = k::no_pid;
        partner_refused_ = false;
        if (k::thread_create(stacks_[0], StackSize, main_prio, main_fn, nullptr, "main") < 0) {
            return false;
        }
        k::run_options o;
        o.return_when_idle = true;
        const bool all_exited = k::run(o) == 0;  // false: a thread stayed blocked
        return all_exited && !partner_refused_;
    }

    // spawn_second(fn, prio) is called by main, so the partner is created
    // the way RIOT's benches do it (from main, after main's own set-up).
    static void spawn_second(void (*fn)(void*), unsigned prio) {
        second_ = k::thread_create(stacks_[1], StackSize, prio, fn, nullptr, "second");
        if (second_ < 0) partner_refused_ = true;  // main runs alone: its number would lie
    }

    alignas(alignof(std::max_align_t)) static inline unsigned char stacks_[2][StackSize];
    static inline std::uint32_t iters_;
    // stop_ needs no volatile or atomic: main writes it and the partner
    // reads it in threads of one kernel, each read after a kernel call
    // that may switch threads, which the compiler cannot see through.
    static inline bool stop_;
    static inline k::pid second_;
    static inline bool partner_refused_;
    static inline k::mutex* mutex_;
};

}  // namespace kairos_bench

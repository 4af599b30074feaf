// SPDX-License-Identifier: MIT
// services_bodies.hpp: ping-pong benchmarks of the semaphore and the typed
// queue, in the semantics of sched_bodies.hpp (whose sessions they use):
// "main" at 7 gives or sends, the partner at 6 waits in take() or
// receive(); one iteration = one give or send of main, which wakes the
// partner (a switch to it and back). The host bench
// (bench/host/sched_bench.cpp) and the target firmware
// (bench/target/bench_target.cpp) run them.
#pragma once

#include <kairos/kernel/queue.hpp>
#include <kairos/kernel/semaphore.hpp>

#include <cstdint>

#include "sched_bodies.hpp"

namespace kairos_bench {

// bytes<N>: an N-byte trivially copyable element.
template <std::size_t N>
struct bytes {
    std::uint32_t w[N / 4];
};

template <class Clock, std::size_t StackSize>
class services_bodies : sched_bodies<Clock, StackSize> {
    using base = sched_bodies<Clock, StackSize>;

public:
    // sem_pingpong(n) times n give()s of main to the partner at MAIN - 1,
    // which waits in take(); each give hands the unit to it. After stop_,
    // one more give ends it.
    static bool sem_pingpong(std::uint32_t n) {
        k::semaphore s;
        sem_ = &s;
        return base::session(n, [](void*) {
            base::spawn_second([](void*) {
                while (!base::stop_) sem_->take();
            }, base::main_prio - 1);
            Clock::begin();
            for (std::uint32_t i = 0; i < base::iters_; ++i) sem_->give();
            Clock::end();
            base::stop_ = true;
            sem_->give();
        });
    }

    // queue_pingpong<Bytes>(n) times n send()s of a Bytes-byte element by
    // main to the partner at MAIN - 1, which waits in receive(); each send
    // copies the element straight into the partner's buffer.
    template <std::size_t Bytes>
    static bool queue_pingpong(std::uint32_t n) {
        k::queue<bytes<Bytes>, 4> q;
        queue_of<Bytes> = &q;
        return base::session(n, [](void*) {
            base::spawn_second([](void*) {
                bytes<Bytes> in{};
                while (!base::stop_) queue_of<Bytes>->receive(in);
            }, base::main_prio - 1);
            bytes<Bytes> out{};
            Clock::begin();
            for (std::uint32_t i = 0; i < base::iters_; ++i) {
                out.w[0] = i;
                queue_of<Bytes>->send(out);
            }
            Clock::end();
            base::stop_ = true;
            queue_of<Bytes>->send(out);
        });
    }

private:
    static inline k::semaphore* sem_;
    template <std::size_t Bytes>
    static inline k::queue<bytes<Bytes>, 4>* queue_of;
};

}  // namespace kairos_bench

// SPDX-License-Identifier: MIT
// Two kairos threads on a host: a worker at higher priority receives
// requests and replies, the main thread sends them and shares a counter
// with it under a priority-inheritance mutex. Static stacks, no heap.
#include <kairos/kernel/msg.hpp>
#include <kairos/kernel/mutex.hpp>
#include <kairos/kernel/thread.hpp>
#include <kairos/kernel/trace.hpp>

#include <cstdio>

namespace k = kairos::kernel;

namespace {

// Host thread stacks hold the kernel's signal frame too, which the CPU
// sizes (about 12 KiB with AVX-512) and sanitizers grow:
// kairos::kernel::stack_min() is the least this machine accepts.
alignas(64) unsigned char worker_stack[65536];
alignas(64) unsigned char client_stack[65536];
k::mutex counter_lock{k::mutex::protocol::inherit};
unsigned long counter = 0;
k::pid worker_pid = k::no_pid;

void worker(void*) {
    for (;;) {
        k::msg m;
        k::receive(m);
        if (m.type == 0) return;  // stop request
        counter_lock.lock();
        counter += m.value;
        counter_lock.unlock();
        k::msg reply;
        reply.value = m.value * 2;
        k::reply(m, reply);
    }
}

bool ok = true;

void client(void*) {
    for (std::uint32_t i = 1; i <= 1000; ++i) {
        k::msg m, r;
        m.type = 1;
        m.value = i;
        k::send_receive(m, r, worker_pid);
        ok = ok && r.value == 2 * i;
    }
    // The ps-style listing while both threads exist (CPU % needs a kairos
    // built with KAIROS_TRACE; "-" otherwise).
    k::trace::print_threads([](const char* line) { std::fputs(line, stdout); });
    k::msg stop;
    k::send(stop, worker_pid);
}

}  // namespace

int main() {
    worker_pid = k::thread_create(worker_stack, sizeof worker_stack, 5, worker, nullptr, "worker");
    const k::pid c = k::thread_create(client_stack, sizeof client_stack, 6, client, nullptr, "client");
    if (worker_pid <= 0 || c <= 0) {
        std::printf("threads: thread_create refused (%d, %d); stack_min() is %zu\n", worker_pid, c,
                    k::stack_min());
        return 1;
    }
    k::run_options o;
    o.return_when_idle = true;
    const int left = k::run(o);
    std::printf("threads: counter %lu (expect %lu), replies %s, %d threads left\n", counter,
                1000ul * 1001ul / 2ul, ok ? "ok" : "WRONG", left);
    return ok && counter == 1000ul * 1001ul / 2ul && left == 0 ? 0 : 1;
}

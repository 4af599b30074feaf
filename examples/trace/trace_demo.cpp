// SPDX-License-Identifier: MIT
// trace_demo: a traced kairos program (docs/trace.md). Two threads hand a
// mutex back and forth, a timer interrupt (kairos::ticker) queues deferred
// work and wakes a worker thread that runs it, and the lowest thread drains
// the trace ring to the console. At the end it prints the ps-style listing
// (while every thread still exists) and the trace footer; tools/kairos-trace
// turns the output into trace-event JSON and a PNG timeline. Needs a
// kairos built with KAIROS_TRACE.
#include <kairos/deferred.hpp>
#include <kairos/kernel/mutex.hpp>
#include <kairos/kernel/thread.hpp>
#include <kairos/kernel/thread_flags.hpp>
#include <kairos/kernel/trace.hpp>
#include <kairos/port.hpp>
#include <kairos/ticker.hpp>

#include <cstdint>

#if defined(__linux__)
#  include <cstdio>
#endif

#if !KAIROS_TRACE
#  error "trace_demo needs kairos built with KAIROS_TRACE"
#endif

namespace k = kairos::kernel;

namespace {

#if defined(__linux__)
// Host thread stacks hold the kernel's signal frame (k::stack_min()).
constexpr std::size_t stack_size = 65536;
constexpr unsigned spin_unit = 20000;
void out(const char* s) { std::fputs(s, stdout); }
#else
constexpr std::size_t stack_size = 1536;
constexpr unsigned spin_unit = 5000;
void out(const char* s) { kairos::port::console_write(s); }
#endif

constexpr unsigned rounds = 20;  // mutex rounds per contender
constexpr k::flags_t work_flag = 1;
constexpr k::flags_t go_flag = 2;

alignas(64) unsigned char stacks[5][stack_size];
k::mutex shared{k::mutex::protocol::inherit};
kairos::deferred<8> work;
kairos::ticker tick;
k::pid worker_pid = k::no_pid;
k::pid contender_pid[2] = {k::no_pid, k::no_pid};
volatile unsigned sink_value = 0;
volatile unsigned contenders_done = 0;
volatile bool stop_worker = false;

// spin(n): busy work the trace shows as running time.
void spin(unsigned n) {
    for (unsigned i = 0; i < n * spin_unit; ++i) sink_value = sink_value + i;
}

// contender: the mutex hand-off. Each round the lower one (self 1) takes
// the mutex and wakes the higher one, which preempts it, blocks on the
// mutex and lends it its priority; the unlock hands the mutex over and the
// higher one runs at once. The higher one is asleep again before the lower
// one runs (it is higher), so no wake-up is lost.
void contender(void* arg) {
    const auto self = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(arg));
    for (unsigned r = 0; r < rounds; ++r) {
        if (self == 0) {
            k::sleep();
            shared.lock();
            spin(1);
            shared.unlock();
        } else {
            shared.lock();
            k::wakeup(contender_pid[0]);
            spin(4);
            shared.unlock();
            spin(1);
            k::sleep_us(300);
        }
    }
    ++contenders_done;
    k::flags_wait_any(go_flag);  // stays alive for the listing
}

// worker: runs the deferred work the timer interrupt queued.
void worker(void*) {
    while (!stop_worker) {
        k::flags_wait_any(work_flag);
        work.run();
    }
}

// tracer: drains the ring while the others run, then prints the listing
// and lets everyone finish.
void tracer(void*) {
    k::trace::dump_header(out);
    while (contenders_done < 2) {
        k::trace::drain(out);
        k::sleep_us(2000);
    }
    tick.detach();
    k::trace::print_threads(out);
    stop_worker = true;
    k::flags_set(worker_pid, work_flag);
    for (k::pid p : contender_pid) k::flags_set(p, go_flag);
}

void on_tick() {
    static_cast<void>(work.schedule([] { spin(1); }));  // a full queue is counted by overflows()
    k::flags_set(worker_pid, work_flag);
}

}  // namespace

int main() {
    k::trace::reset_stats();
    contender_pid[0] = k::thread_create(stacks[0], stack_size, 3, contender,
                                        reinterpret_cast<void*>(std::uintptr_t{0}), "contender-a");
    contender_pid[1] = k::thread_create(stacks[1], stack_size, 4, contender,
                                        reinterpret_cast<void*>(std::uintptr_t{1}), "contender-b");
    worker_pid = k::thread_create(stacks[2], stack_size, 2, worker, nullptr, "worker");
    const k::pid t = k::thread_create(stacks[3], stack_size, 6, tracer, nullptr, "tracer");
    if (contender_pid[0] <= 0 || contender_pid[1] <= 0 || worker_pid <= 0 || t <= 0) {
        out("trace_demo: thread_create refused\n");
        return 1;
    }
    if (!tick.attach_us(1000, on_tick)) {
        out("trace_demo: no timer\n");
        return 1;
    }
    k::run_options o;
    o.idle_thread = true;
    o.idle_stack = stacks[4];
    o.idle_stack_size = stack_size;
    o.return_when_idle = true;
    const int left = k::run(o);
    k::trace::drain(out);
    k::trace::dump_footer(out);
    return left == 0 && k::trace::dropped() == 0 ? 0 : 1;
}

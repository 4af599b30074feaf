// SPDX-License-Identifier: MIT
// Code-size probe. Built several times (bench/target/CMakeLists.txt): with
// none of KAIROS_SIZE_{RINGS,DEFERRED,KERNEL} it is the baseline (startup,
// runtime, port); each flag adds a typical use of that part: push/pop on an
// spsc_ring and an mpsc_ring; schedule/run/recurrent on a deferred<16, 8>;
// two threads with a mutex, a message and thread flags; KAIROS_SIZE_SERVICES
// (built with the kernel part) adds a semaphore, a condition variable and a
// queue<u32, 4> used by the same two threads; KAIROS_SIZE_WORK_QUEUE a
// work_queue<8, default, 4> started, given immediate, delayed and periodic
// work, a cancel and a stop, with the kernel core it needs (neither is in
// "all", which stays rings + deferred + kernel). `size` of a variant minus
// the baseline is what that part costs (bench/target/collect).
//
// The parts' objects are globals, as firmware declares them. KAIROS_CONSTINIT
// (GCC's __constinit, also in C++17 mode) only asserts what the library
// promises: each is constant-initialized, so no start-up code is counted
// for it; the build fails if one ever needs dynamic initialization.
#include <cstdint>

#include "target.hpp"

#define KAIROS_CONSTINIT __constinit

#if KAIROS_SIZE_RINGS
#  include <kairos/mpsc_ring.hpp>
#  include <kairos/spsc_ring.hpp>
KAIROS_CONSTINIT kairos::spsc_ring<std::uint32_t, 16> spsc_q;
KAIROS_CONSTINIT kairos::mpsc_ring<std::uint32_t, 16> mpsc_q;
#endif
#if KAIROS_SIZE_DEFERRED
#  include <kairos/deferred.hpp>
KAIROS_CONSTINIT kairos::deferred<16, 8> sched;
#endif
#if KAIROS_SIZE_WORK_QUEUE
#  include <kairos/kernel/thread.hpp>
#  include <kairos/kernel/work_queue.hpp>
alignas(kairos::port::stack_align) unsigned char wq_stack[1024];
KAIROS_CONSTINIT kairos::work_queue<8, kairos::default_inplace_size, 4> wq;
#endif
#if KAIROS_SIZE_KERNEL
#  include <kairos/kernel/msg.hpp>
#  include <kairos/kernel/mutex.hpp>
#  include <kairos/kernel/thread.hpp>
#  include <kairos/kernel/thread_flags.hpp>
namespace k = kairos::kernel;
alignas(kairos::port::stack_align) unsigned char stack[1024];
KAIROS_CONSTINIT k::mutex m;
#endif
#if KAIROS_SIZE_SERVICES
#  include <kairos/kernel/condvar.hpp>
#  include <kairos/kernel/queue.hpp>
#  include <kairos/kernel/semaphore.hpp>
KAIROS_CONSTINIT k::semaphore sem;
KAIROS_CONSTINIT k::condvar cv;
KAIROS_CONSTINIT k::queue<std::uint32_t, 4> q;
#endif

volatile std::uint32_t input = 7;
volatile std::uint32_t output;

int main() {
    std::uint32_t v = input, out = v;
#if KAIROS_SIZE_RINGS
    if (spsc_q.try_push(v)) (void)spsc_q.try_pop(out);
    if (mpsc_q.try_push(v)) (void)mpsc_q.try_pop(out);
#endif
#if KAIROS_SIZE_DEFERRED
    (void)sched.schedule([v] { output = v; });
    (void)sched.schedule_recurrent([] { return false; }, 1000);
    sched.run();
    sched.run_recurrent();
#endif
#if KAIROS_SIZE_KERNEL
    const k::pid p = k::thread_create(stack, sizeof stack, 6, [](void*) {
        m.lock();
        k::msg msg;
        k::receive(msg);
        (void)k::flags_wait_any(1);
#  if KAIROS_SIZE_SERVICES
        sem.take();
        std::uint32_t x = 0;
        q.receive(x);
        (void)cv.wait_for(m, 1000);
#  endif
        m.unlock();
    }, nullptr, "t");
    k::msg msg;
    k::send(msg, p);
    k::flags_set(p, 1);
#  if KAIROS_SIZE_SERVICES
    (void)sem.give();
    (void)q.try_send(v);
    (void)cv.signal();
#  endif
    k::run_options o;
    o.return_when_idle = true;
    out = static_cast<std::uint32_t>(k::run(o)) + v;
#endif
#if KAIROS_SIZE_WORK_QUEUE
    (void)wq.start(5, wq_stack, sizeof wq_stack);
    (void)wq.schedule([v] { output = v; });
    (void)wq.schedule_after(1000, [] { output = 1; });
    auto every = wq.schedule_every(1000, [] { output = 2; });
    (void)every.cancel();
    (void)wq.schedule([] { (void)wq.stop(); });
    kairos::kernel::run_options wo;
    wo.return_when_idle = true;
    out = static_cast<std::uint32_t>(kairos::kernel::run(wo)) + v;
#endif
    return out == v ? 0 : 1;
}

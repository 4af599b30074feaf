// SPDX-License-Identifier: MIT
// Benchmark firmware: instructions per iteration of kairos operations on the
// target core, in RIOT's output format.
//
// Each bench runs its body n times between two calls of kairos_bench_mark(),
// and reads the board timer around the body. Under QEMU's -icount shift=0
// one instruction takes exactly 1 ns of virtual time, so the timer delta
// converts to instructions (KAIROS_QEMU_TIMER_HZ: the timer's rate in the
// QEMU model). The insncount plugin (bench/plugin), given the address of
// kairos_bench_mark, counts the same span exactly; bench/target/collect
// uses the plugin's count and checks the two agree.
//
// Output per bench, RIOT's tests/bench_* format plus a name line:
//   bench <name> n <n> insns <instructions per iteration x 100, from the timer>
//   { "result" : R, "ticks" : T }
// with T = instructions per iteration (rounded) and R = port::cpu_hz() / T,
// i.e. iterations per second at one instruction per cycle (RIOT: result =
// iterations per second, ticks = CPU cycles per iteration). Instructions
// are a lower bound on cycles: real cores stall on flash wait states,
// taken branches and multi-cycle instructions.
//
// Every figure includes the loop and, for the bit operations, a call
// through a function pointer (as RIOT's bench_bitarithm_timings does, so
// the compiler cannot hoist or fold the operation); `overhead.call_loop`
// measures that frame with an empty function. The sched.* benches (Cortex-M,
// lx106 and RV32) are bench/common/sched_bodies.hpp,
// shared with the host bench: RIOT's tests/bench_*, "main" at priority 7,
// the partner at 6 (or 7 for yield_pingpong), one iteration = one operation
// of main; the span is only main's loop, not thread creation.
#include <kairos/bits.hpp>
#include <kairos/mpsc_ring.hpp>
#include <kairos/spsc_ring.hpp>
#include <kairos/timer_queue.hpp>

#include <cstdint>

#include "target.hpp"

#if defined(__arm__) || defined(__XTENSA__) || defined(__riscv)
#  define KAIROS_BENCH_KERNEL 1
#  include "sched_bodies.hpp"
#  include "services_bodies.hpp"
#  include "soft_irq.hpp"

#  include <kairos/kernel/work_queue.hpp>
#endif

#if defined(__arm__)
#  include "cortex_m.hpp"
namespace board = kairos::cortex_m;
#elif defined(__riscv)
#  include "riscv.hpp"
namespace board = kairos::riscv;
#else
#  include "lx106.hpp"
namespace board = kairos::lx106;
#endif

#ifndef KAIROS_QEMU_TIMER_HZ
#  error "KAIROS_QEMU_TIMER_HZ: rate of the board timer in the QEMU model (bench/target/CMakeLists.txt)"
#endif

extern "C" __attribute__((noinline, used)) void kairos_bench_mark() { asm volatile("" ::: "memory"); }

namespace {

volatile std::uint32_t sink;  // results go here so no loop is dead code

using word_fn = unsigned (*)(std::uint32_t);

// The operations, each in its own non-inlined function, called through a
// volatile pointer.
__attribute__((noinline)) unsigned op_empty(std::uint32_t x) { return x; }
__attribute__((noinline)) unsigned op_msb(std::uint32_t x) { return kairos::msb(x); }
__attribute__((noinline)) unsigned op_lsb(std::uint32_t x) { return kairos::lsb(x); }
__attribute__((noinline)) unsigned op_popcount(std::uint32_t x) { return kairos::popcount(x); }
__attribute__((noinline)) unsigned op_test_and_clear(std::uint32_t x) {
    return kairos::test_and_clear(x) + x;
}
__attribute__((noinline)) unsigned op_msb_hw(std::uint32_t x) { return kairos::bits::hw::msb(x); }
__attribute__((noinline)) unsigned op_msb_sw(std::uint32_t x) { return kairos::bits::sw::msb(x); }
__attribute__((noinline)) unsigned op_lsb_hw(std::uint32_t x) { return kairos::bits::hw::lsb(x); }
__attribute__((noinline)) unsigned op_lsb_sw(std::uint32_t x) { return kairos::bits::sw::lsb(x); }

word_fn volatile current_op;

// call_loop(n): n calls of current_op on varying non-zero words.
void call_loop(std::uint32_t n) {
    const word_fn f = current_op;
    unsigned acc = 0;
    for (std::uint32_t i = 1; i <= n; ++i) {
        std::uint32_t x = i * 2654435761u;  // Knuth's multiplicative hash: spread bits
        if (x == 0) x = 1;
        acc += f(x);
    }
    sink = acc;
}

kairos::spsc_ring<std::uint32_t, 16> spsc_q;
kairos::mpsc_ring<std::uint32_t, 16> mpsc_q;

// ring_loop(q, n): n try_push + try_pop pairs on an otherwise empty ring.
template <class Ring>
void ring_loop(Ring& q, std::uint32_t n) {
    std::uint32_t acc = 0, v = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
        if (!q.try_push(i)) return;  // cannot happen: the ring is drained each time
        if (!q.try_pop(v)) return;
        acc += v;
    }
    sink = acc;
}
void spsc_loop(std::uint32_t n) { ring_loop(spsc_q, n); }
void mpsc_loop(std::uint32_t n) { ring_loop(mpsc_q, n); }

// now_loop(n): n reads of the port's clock, kairos::port::now_us(); an idle
// pass of the deferred scheduler is one, every ticker tick another.
void now_loop(std::uint32_t n) {
    std::uint64_t acc = 0;
    for (std::uint32_t i = 0; i < n; ++i) acc += kairos::port::now_us();
    sink = static_cast<unsigned>(acc);
}

// timer_rearm_loop(n): n re-arms of one timer among timer_count armed ones,
// each under the interrupt mask as the kernel arms a deadline, alternately
// to the earliest and to the latest due time (the worst case of a sorted
// list and of a heap): masked.max.timer.rearm_64 is one arm() with 64
// timers armed.
constexpr unsigned timer_count = 64;
kairos::timer_node timer_nodes[timer_count];
kairos::timer_queue<timer_count> timer_q;
void timer_rearm_loop(std::uint32_t n) {
    for (unsigned i = 0; i < timer_count; ++i) (void)timer_q.arm(timer_nodes[i], 1000u + 8u * i);
    for (std::uint32_t i = 0; i < n; ++i) {
        const auto st = kairos::port::irq_disable();
        (void)timer_q.arm(timer_nodes[i % timer_count], (i & 1u) != 0 ? 1u : 100000u);
        kairos::port::irq_restore(st);
    }
    for (kairos::timer_node& t : timer_nodes) timer_q.disarm(t);
}

// span: the measured span, between the two marks, timed by the board
// timer; also the clock of sched_bodies.
struct span {
    static inline std::uint64_t t0, t1;
    static void begin() {
        kairos_bench_mark();
        t0 = board::cycles();
    }
    static void end() {
        t1 = board::cycles();
        kairos_bench_mark();
    }
};

#if KAIROS_BENCH_KERNEL
using sched = kairos_bench::sched_bodies<span, 1024>;
using services = kairos_bench::services_bodies<span, 1024>;

// sched_bench<Body>(n) runs one session of Body; a kernel failure is a
// panic, not a number.
template <bool (*Body)(std::uint32_t)>
void sched_bench(std::uint32_t n) {
    if (!Body(n)) kairos_port_panic("bench: sched session failed", __FILE__, __LINE__);
}
#endif

#if KAIROS_BENCH_KERNEL
// sched.workqueue_isr: an interrupt schedules one work item into a
// kairos::work_queue whose thread (priority 6) is above "main" (7, which
// pends the interrupt, soft_irq.hpp); one iteration = pend, the handler's
// schedule(), the queue thread woken, the item run, the thread asleep again
// and main resumed (FreeRTOS: xTimerPendFunctionCallFromISR() to the timer
// service task; Zephyr: k_work_submit() from an ISR).
namespace workqueue_isr {
kairos::work_queue<4> queue;
alignas(kairos::port::stack_align) unsigned char stacks[2][1024];
std::uint32_t iters;
volatile std::uint32_t ran;
volatile bool refused;
void item() { ran = ran + 1; }
void irq() {
    if (!queue.schedule(&item)) refused = true;
}
void main_fn(void*) {
    if (queue.start(6, stacks[1], sizeof stacks[1], "wq") < 0) return;
    span::begin();
    for (std::uint32_t i = 0; i < iters; ++i) ktarget::pend_irq<irq>(0);
    span::end();
    (void)queue.stop();
}
// run(n) is one kernel session; the item must have run once per interrupt.
void run(std::uint32_t n) {
    kairos::kernel::reset();
    iters = n;
    ran = 0;
    refused = false;
    kairos::kernel::run_options o;
    o.return_when_idle = true;
    if (kairos::kernel::thread_create(stacks[0], sizeof stacks[0], 7, main_fn, nullptr, "main") < 0 ||
        kairos::kernel::run(o) != 0 || refused || ran != n) {
        kairos_port_panic("bench: workqueue_isr session failed", __FILE__, __LINE__);
    }
}
}  // namespace workqueue_isr
#endif

struct bench {
    const char* name;
    word_fn op;  // for call_loop; nullptr otherwise
    void (*body)(std::uint32_t n);
    bool self_timed;  // body calls span::begin/end itself
};

constexpr std::uint32_t iterations = 10000;

void run(const bench& b) {
    current_op = b.op;
    if (b.self_timed) {
        b.body(iterations);
    } else {
        span::begin();
        b.body(iterations);
        span::end();
    }
    // instructions = ticks * 1e9 / timer_hz; x100 for two decimals.
    const std::uint64_t insns_x100 =
        (span::t1 - span::t0) * (100ull * 1000000000ull / KAIROS_QEMU_TIMER_HZ) / iterations;
    const std::uint64_t ticks = (insns_x100 + 50) / 100;
    ktarget::print("bench ");
    ktarget::print(b.name);
    ktarget::print(" n ");
    ktarget::print_u64(iterations);
    ktarget::print(" insns_x100 ");
    ktarget::print_u64(insns_x100);
    ktarget::print("\n{ \"result\" : ");
    ktarget::print_u64(ticks ? kairos::port::cpu_hz() / ticks : 0);
    ktarget::print(", \"ticks\" : ");
    ktarget::print_u64(ticks);
    ktarget::print(" }\n");
}

}  // namespace

#if KAIROS_BENCH_KERNEL && !defined(__XTENSA__) && !defined(__riscv)
extern "C" void IRQ0_Handler() { workqueue_isr::irq(); }
#endif

int main() {
    static const bench benches[] = {
        {"overhead.call_loop", op_empty, call_loop, false},
        {"bitarithm.msb", op_msb, call_loop, false},
        {"bitarithm.lsb", op_lsb, call_loop, false},
        {"bitarithm.popcount", op_popcount, call_loop, false},
        {"bitarithm.test_and_clear", op_test_and_clear, call_loop, false},
        {"bits.msb.hw", op_msb_hw, call_loop, false},
        {"bits.msb.sw", op_msb_sw, call_loop, false},
        {"bits.lsb.hw", op_lsb_hw, call_loop, false},
        {"bits.lsb.sw", op_lsb_sw, call_loop, false},
        {"ring.spsc.push_pop", nullptr, spsc_loop, false},
        {"ring.mpsc.push_pop", nullptr, mpsc_loop, false},
        {"port.now_us", nullptr, now_loop, false},
        {"timer.rearm_64", nullptr, timer_rearm_loop, false},
#if KAIROS_BENCH_KERNEL
        {"sched.nop", nullptr, sched_bench<sched::nop>, true},
        {"sched.yield_pingpong", nullptr, sched_bench<sched::yield_pingpong>, true},
        {"sched.mutex_pingpong", nullptr, sched_bench<sched::mutex_pingpong>, true},
        {"sched.msg_pingpong", nullptr, sched_bench<sched::msg_pingpong>, true},
        {"sched.flags_pingpong", nullptr, sched_bench<sched::flags_pingpong>, true},
        {"sched.sem_pingpong", nullptr, sched_bench<services::sem_pingpong>, true},
        {"sched.queue_pingpong.8", nullptr, sched_bench<services::queue_pingpong<8>>, true},
        {"sched.queue_pingpong.32", nullptr, sched_bench<services::queue_pingpong<32>>, true},
        {"sched.workqueue_isr", nullptr, workqueue_isr::run, true},
#endif
    };
    board::cycles();  // start the time base outside the measured spans
    for (const bench& b : benches) run(b);
    return 0;
}

// sched_bench.cpp: RIOT's scheduler benchmarks (tests/bench/*, anchors-
// scheduler.md §5) on the kairos kernel, with the same semantics: "main" at
// RIOT's THREAD_PRIORITY_MAIN (7), the second thread at MAIN - 1, and one
// iteration is one operation of main (a ping-pong iteration is two
// switches and is not halved). Peers in the same run: a bare Boost.Context
// fiber round trip and a Boost.Fiber yield between two fibers; RIOT
// native64 as measured on a VM like ours is quoted. Also bits.* per RIOT's
// bitarithm_timings: calls through a function pointer.
#include <kairos/bits.hpp>
#include <kairos/kernel/msg.hpp>
#include <kairos/kernel/mutex.hpp>
#include <kairos/kernel/thread.hpp>
#include <kairos/kernel/thread_flags.hpp>
#include <kairos/port.hpp>

#include <cstdint>
#include <string>

#include "bench.hpp"

#if KAIROS_BENCH_HAVE_BOOST_CONTEXT
#    include <boost/context/fiber.hpp>
#endif
#if KAIROS_BENCH_HAVE_BOOST_FIBER
#    include <boost/fiber/all.hpp>
#endif

namespace {

namespace k = kairos::kernel;

constexpr unsigned main_prio = 7;  // RIOT THREAD_PRIORITY_MAIN
constexpr std::size_t stack_size = 64 * 1024;
alignas(16) unsigned char stacks[2][stack_size];

// One benchmark session: main runs `iters` operations and records ns per
// operation; second (if any) is the partner thread.
struct session {
    long iters = 0;
    double ns = -1;
    bool stop = false;
    k::pid second = k::no_pid;
};
session s;

long long t_start;
void start_clock() { t_start = kb::now_ns(); }
void stop_clock() { s.ns = static_cast<double>(kb::now_ns() - t_start) / static_cast<double>(s.iters); }

// run_session(iters, main_fn) runs main_fn as "main" at MAIN until every
// thread has exited and returns the ns per operation main measured.
double run_session(long iters, void (*main_fn)(void*)) {
    k::reset();
    s = session{};
    s.iters = iters;
    if (k::thread_create(stacks[0], stack_size, main_prio, main_fn, nullptr, "main") < 0) return -1;
    k::run_options o;
    o.return_when_idle = true;
    if (k::run(o) != 0) return -1;  // a thread left blocked: the bench is broken
    return s.ns;
}

// spawn_second() is called by main, so the partner is created the way
// RIOT's benches do it (from main, after main's own set-up).
void spawn_second(void (*fn)(void*), unsigned prio) {
    s.second = k::thread_create(stacks[1], stack_size, prio, fn, nullptr, "second");
}

// sched.nop: only main runnable; one yield() is one scheduling decision
// and a switch back into the same thread.
double sched_nop(const kb::round& r) {
    return run_session(
        r.scale(2000000, 20000),
        [](void*) {
            start_clock();
            for (long i = 0; i < s.iters; ++i) k::yield();
            stop_clock();
        });
}

// sched.yield_pingpong: second at MAIN; each yield() goes to the other.
double yield_pingpong(const kb::round& r) {
    return run_session(
        r.scale(1000000, 10000),
        [](void*) {
            spawn_second([](void*) {
                while (!s.stop) k::yield();
            }, main_prio);
            start_clock();
            for (long i = 0; i < s.iters; ++i) k::yield();
            stop_clock();
            s.stop = true;
        });
}

// sched.mutex_pingpong: second at MAIN - 1 keeps locking the mutex main
// holds; main's unlock() hands it over (second runs, locks again, blocks).
k::mutex* bench_mutex;
double mutex_pingpong(const kb::round& r) {
    k::mutex m;
    bench_mutex = &m;
    return run_session(
        r.scale(1000000, 10000),
        [](void*) {
            bench_mutex->lock();
            spawn_second([](void*) {
                for (;;) {
                    bench_mutex->lock();
                    if (s.stop) break;
                }
            }, main_prio - 1);
            start_clock();
            for (long i = 0; i < s.iters; ++i) bench_mutex->unlock();
            stop_clock();
            s.stop = true;
            bench_mutex->unlock();
        });
}

// sched.msg_pingpong: second at MAIN - 1 waits in receive(); main send()s.
double msg_pingpong(const kb::round& r) {
    return run_session(
        r.scale(1000000, 10000),
        [](void*) {
            spawn_second([](void*) {
                k::msg m;
                do {
                    k::receive(m);
                } while (m.type == 0);
            }, main_prio - 1);
            k::msg m;
            start_clock();
            for (long i = 0; i < s.iters; ++i) k::send(m, s.second);
            stop_clock();
            m.type = 1;
            k::send(m, s.second);
        });
}

// sched.flags_pingpong: second at MAIN - 1 in flags_wait_any(); main sets.
double flags_pingpong(const kb::round& r) {
    return run_session(
        r.scale(1000000, 10000),
        [](void*) {
            spawn_second([](void*) {
                while ((k::flags_wait_any(0x3) & 0x2) == 0) {
                }
            }, main_prio - 1);
            start_clock();
            for (long i = 0; i < s.iters; ++i) k::flags_set(s.second, 0x1);
            stop_clock();
            k::flags_set(s.second, 0x2);
        });
}

const char* const riot = "anchors-scheduler.md §5 (RIOT native64, 2-vCPU VM, best of 3 runs)";
KB_CASE("sched.nop", "kairos", "ns/iter", lower, sched_nop);
KB_QUOTE("sched.nop", "riot.native64", 1110, "ns/iter", riot);
KB_CASE("sched.yield_pingpong", "kairos", "ns/iter", lower, yield_pingpong);
KB_QUOTE("sched.yield_pingpong", "riot.native64", 2416, "ns/iter", riot);
KB_CASE("sched.mutex_pingpong", "kairos", "ns/iter", lower, mutex_pingpong);
KB_QUOTE("sched.mutex_pingpong", "riot.native64", 2877, "ns/iter", riot);
KB_CASE("sched.msg_pingpong", "kairos", "ns/iter", lower, msg_pingpong);
KB_QUOTE("sched.msg_pingpong", "riot.native64", 4585, "ns/iter", riot);
KB_CASE("sched.flags_pingpong", "kairos", "ns/iter", lower, flags_pingpong);
KB_QUOTE("sched.flags_pingpong", "riot.native64", 6130, "ns/iter", riot);

// Peers of the yield ping-pong: the same two switches without a scheduler.
#if KAIROS_BENCH_HAVE_BOOST_CONTEXT
namespace bctx = boost::context;
KB_CASE("sched.yield_pingpong", "boost.context.fiber", "ns/iter", lower, [](const kb::round& r) {
    const long n = r.scale(1000000, 10000);
    bctx::fiber f{[](bctx::fiber&& back) {
        for (;;) back = std::move(back).resume();
        return std::move(back);
    }};
    const long long t0 = kb::now_ns();
    for (long i = 0; i < n; ++i) f = std::move(f).resume();  // one round trip
    return static_cast<double>(kb::now_ns() - t0) / static_cast<double>(n);
});
#else
KB_SKIP("sched.yield_pingpong", "boost.context.fiber", "libboost-context-dev");
#endif
#if KAIROS_BENCH_HAVE_BOOST_FIBER
KB_CASE("sched.yield_pingpong", "boost.fiber.yield", "ns/iter", lower, [](const kb::round& r) {
    const long n = r.scale(1000000, 10000);
    bool stop = false;
    boost::fibers::fiber other([&stop] {
        while (!stop) boost::this_fiber::yield();
    });
    const long long t0 = kb::now_ns();
    for (long i = 0; i < n; ++i) boost::this_fiber::yield();  // to other and back
    const long long t1 = kb::now_ns();
    stop = true;
    other.join();
    return static_cast<double>(t1 - t0) / static_cast<double>(n);
});
#else
KB_SKIP("sched.yield_pingpong", "boost.fiber.yield", "libboost-fiber-dev");
#endif

// ---- bits.* per RIOT tests/core/bitarithm_timings ---------------------------
// Each call goes through a volatile function pointer, as RIOT's does, on
// inputs that change every call; unit: million calls per second.

using word_fn = unsigned (*)(std::uint32_t);
using tac_fn = std::uint32_t (*)(std::uint32_t, unsigned*);

template <word_fn F>
double time_word_fn(const kb::round& r) {
    const long n = r.scale(20000000, 200000);
    word_fn volatile fp = F;
    std::uint32_t x = 0x9E3779B9u, acc = 0;
    const long long t0 = kb::now_ns();
    for (long i = 0; i < n; ++i) {
        x = x * 1664525u + 1013904223u;  // LCG: new input, never 0 after | 1
        acc += fp(x | 1u);
    }
    const long long t1 = kb::now_ns();
    kb::do_not_optimize(acc);
    return static_cast<double>(n) * 1e3 / static_cast<double>(t1 - t0);
}

template <class Impl>
std::uint32_t tac(std::uint32_t state, unsigned* index) {
    *index = Impl::test_and_clear(state);
    return state;
}
struct tac_platform {
    static unsigned test_and_clear(std::uint32_t& x) { return kairos::test_and_clear(x); }
};
struct tac_sw {
    static unsigned test_and_clear(std::uint32_t& x) { return kairos::bits::sw::test_and_clear(x); }
};

// test_and_clear visits all set bits of a word, one call per bit (RIOT's
// loop), on a fresh word whenever the previous is exhausted.
template <tac_fn F>
double time_tac(const kb::round& r) {
    const long n = r.scale(20000000, 200000);
    tac_fn volatile fp = F;
    std::uint32_t x = 0x9E3779B9u, state = 0;
    unsigned idx = 0, acc = 0;
    const long long t0 = kb::now_ns();
    for (long i = 0; i < n; ++i) {
        if (state == 0) state = (x = x * 1664525u + 1013904223u) | 1u;
        state = fp(state, &idx);
        acc += idx;
    }
    const long long t1 = kb::now_ns();
    kb::do_not_optimize(acc);
    return static_cast<double>(n) * 1e3 / static_cast<double>(t1 - t0);
}

unsigned msb_platform(std::uint32_t x) { return kairos::msb(x); }
unsigned lsb_platform(std::uint32_t x) { return kairos::lsb(x); }
unsigned pop_platform(std::uint32_t x) { return kairos::popcount(x); }
unsigned msb_sw(std::uint32_t x) { return kairos::bits::sw::msb(x); }
unsigned lsb_sw(std::uint32_t x) { return kairos::bits::sw::lsb(x); }
unsigned pop_sw(std::uint32_t x) { return kairos::bits::sw::popcount(x); }

const char* const riot_bits = "anchors-scheduler.md §5 (RIOT native64 bitarithm_timings)";
KB_CASE("bits.msb", "kairos", "M calls/s", higher, time_word_fn<msb_platform>);
KB_CASE("bits.msb", "kairos.sw", "M calls/s", higher, time_word_fn<msb_sw>);
KB_QUOTE("bits.msb", "riot.native64", 117, "M calls/s", riot_bits);
KB_CASE("bits.lsb", "kairos", "M calls/s", higher, time_word_fn<lsb_platform>);
KB_CASE("bits.lsb", "kairos.sw", "M calls/s", higher, time_word_fn<lsb_sw>);
KB_QUOTE("bits.lsb", "riot.native64", 226, "M calls/s", riot_bits);
KB_CASE("bits.bits_set", "kairos", "M calls/s", higher, time_word_fn<pop_platform>);
KB_CASE("bits.bits_set", "kairos.sw", "M calls/s", higher, time_word_fn<pop_sw>);
KB_QUOTE("bits.bits_set", "riot.native64", 66.5, "M calls/s", riot_bits);
KB_CASE("bits.test_and_clear", "kairos", "M calls/s", higher, time_tac<tac<tac_platform>>);
KB_CASE("bits.test_and_clear", "kairos.sw", "M calls/s", higher, time_tac<tac<tac_sw>>);
KB_QUOTE("bits.test_and_clear", "riot.native64", 20.8, "M calls/s", riot_bits);

const int info_port = kb::add_info("kernel port", kairos::port::name());
const int info_rq = kb::add_info(
    "kernel run queue", KAIROS_RUNQUEUE_CLZ ? "clz: reversed bitmap, best level = one clz"
                                            : "lsb: natural bitmap, best level = lowest set bit");
const int info_bits = kb::add_info("bits path", KAIROS_HAS_CLZ ? "hw (builtins)" : "sw (de Bruijn)");

}  // namespace

// SPDX-License-Identifier: MIT
// sched_bench.cpp: RIOT's scheduler benchmarks (tests/bench/*,
// RIOT native64 quoted) on the kairos kernel, with the same semantics: "main" at
// RIOT's THREAD_PRIORITY_MAIN (7), the second thread at MAIN - 1, and one
// iteration is one operation of main (a ping-pong iteration is two
// switches and is not halved). The bodies are bench/common/sched_bodies.hpp,
// shared with the target firmware. Peers in the same run: a bare Boost.Context
// fiber round trip and a Boost.Fiber yield between two fibers; RIOT
// native64 as measured on a VM like ours is quoted. Also bits.* per RIOT's
// bitarithm_timings: calls through a function pointer.
#include <kairos/bits.hpp>
#include <kairos/port.hpp>

#include <cstdint>
#include <string>

#include "bench.hpp"
#include "sched_bodies.hpp"
#include "services_bodies.hpp"

#if KAIROS_BENCH_HAVE_BOOST_CONTEXT
#    include <boost/context/fiber.hpp>
#endif
#if KAIROS_BENCH_HAVE_BOOST_FIBER
#    include <boost/fiber/all.hpp>
#endif

namespace {

// ns_clock: the timing hooks of sched_bodies, the wall clock around main's
// loop.
struct ns_clock {
    static inline long long t0, t1;
    static void begin() { t0 = kb::now_ns(); }
    static void end() { t1 = kb::now_ns(); }
};
using bodies = kairos_bench::sched_bodies<ns_clock, 64 * 1024>;

// ns_per_iter<Body, Full>(r) is one round: Body's session at Full
// iterations (Full / 100 under --quick); it returns the ns per operation of
// main, or -1 (a failed round) if the kernel failed.
template <bool (*Body)(std::uint32_t), long Full>
double ns_per_iter(const kb::round& r) {
    const long n = r.scale(Full, Full / 100);
    if (!Body(static_cast<std::uint32_t>(n))) return -1;
    return static_cast<double>(ns_clock::t1 - ns_clock::t0) / static_cast<double>(n);
}

const char* const riot = "RIOT native64 (quoted from RIOT's published runs, 2-vCPU VM, best of 3 runs)";
KB_CASE("sched.nop", "kairos", "ns/iter", lower, ns_per_iter<bodies::nop, 2000000>);
KB_QUOTE("sched.nop", "riot.native64", 1110, "ns/iter", riot);
KB_CASE("sched.yield_pingpong", "kairos", "ns/iter", lower,
        ns_per_iter<bodies::yield_pingpong, 1000000>);
KB_QUOTE("sched.yield_pingpong", "riot.native64", 2416, "ns/iter", riot);
KB_CASE("sched.mutex_pingpong", "kairos", "ns/iter", lower,
        ns_per_iter<bodies::mutex_pingpong, 1000000>);
KB_QUOTE("sched.mutex_pingpong", "riot.native64", 2877, "ns/iter", riot);
KB_CASE("sched.msg_pingpong", "kairos", "ns/iter", lower,
        ns_per_iter<bodies::msg_pingpong, 1000000>);
KB_QUOTE("sched.msg_pingpong", "riot.native64", 4585, "ns/iter", riot);
KB_CASE("sched.flags_pingpong", "kairos", "ns/iter", lower,
        ns_per_iter<bodies::flags_pingpong, 1000000>);
KB_QUOTE("sched.flags_pingpong", "riot.native64", 6130, "ns/iter", riot);
using services = kairos_bench::services_bodies<ns_clock, 64 * 1024>;
KB_CASE("sched.sem_pingpong", "kairos", "ns/iter", lower,
        ns_per_iter<services::sem_pingpong, 1000000>);
KB_CASE("sched.queue_pingpong.8", "kairos", "ns/iter", lower,
        ns_per_iter<services::queue_pingpong<8>, 1000000>);
KB_CASE("sched.queue_pingpong.32", "kairos", "ns/iter", lower,
        ns_per_iter<services::queue_pingpong<32>, 1000000>);

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
        x = x * 1664525u + 1013904223u;  // LCG: a new input each call
        acc += fp(x != 0 ? x : 1u);       // not x | 1: lsb would always be 0
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

const char* const riot_bits = "RIOT native64 (quoted from RIOT's published runs bitarithm_timings)";
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

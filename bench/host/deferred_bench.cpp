// SPDX-License-Identifier: MIT
// deferred_bench.cpp: kairos::deferred (through its ESP8266 compatibility
// layer) against the linked-list design it replaces (bench/baselines/,
// a reimplementation of the ESP8266 core's Schedule.cpp), same run,
// interleaved rounds.
//
//   deferred.seed_stress.<chunk>   the seed of esp8266/Arduino PR #6139:
//       100 000 messages pushed from a 1 ms ticker callback (signal context)
//       in chunks of <chunk> per tick into 32 slots, consumed by a main loop
//       calling run_scheduled_functions(); every function runs the seed's
//       checkMessage. Value: wall ms. Metrics: cpu_ms (this thread: producer
//       and consumer), failed_pushes, lost, reordered, bound_ms (what the
//       ticker allows: messages / min(chunk, 32) ticks of 1 ms).
//   deferred.schedule_run          ns per schedule + run pair, one thread.
//   deferred.schedule_run_signal   ns per item, pushed 16 at a time from a
//                                  signal handler, then run by the loop;
//                                  metric signal_floor_ns: the signals alone.
//   deferred.recurrent_idle        ns per recurrent pass, 32 functions, none due.
#include "bench.hpp"

#include "../baselines/esp8266_linked_list.hpp"
#include "seed_sketch.hpp"

#include <kairos/compat/esp8266/Schedule.h>
#include <kairos/deferred.hpp>
#include <kairos/ticker.hpp>

#include <atomic>
#include <csignal>
#include <cstdint>
#include <ctime>
#include <pthread.h>
#include <string>

namespace {

static_assert(SCHEDULED_FN_MAX_COUNT == 32, "the seed uses the default capacity of 32");

// The two implementations behind the compat-style interface.
struct kairos_impl {
    template <class F>
    static bool schedule(F&& f) {
        return schedule_function(std::forward<F>(f));
    }
    static void run() { run_scheduled_functions(); }
};

baseline::esp8266_linked_list baseline_scheduler;
struct baseline_impl {
    template <class F>
    static bool schedule(F&& f) {
        return baseline_scheduler.schedule_function(std::forward<F>(f));
    }
    static void run() { baseline_scheduler.run_scheduled_functions(); }
};

double thread_cpu_ms() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

// ---- deferred.seed_stress ------------------------------------------------

// seed is the sketch's state (tests/scenarios/seed_sketch.hpp, shared with
// the target stress); the ticker callback runs in signal context on this
// thread. seed_processed counts the functions run, so the loop sees when a
// run() made no progress.
seed_sketch::state seed;
volatile unsigned long seed_processed = 0;
kairos::ticker seed_ticker;

template <class Impl>
void seed_ticker_callback() {
    seed_sketch::produce(seed, [](std::uint32_t msg) {
        return Impl::schedule([msg] {
            seed_processed = seed_processed + 1;
            if (!seed_sketch::check(seed, msg)) seed_ticker.detach();
        });
    });
}

// seed_stress<Impl>(chunk, r) runs the seed once. The loop calls run() and,
// when a call made no progress, sleeps until the next signal (sigsuspend
// with the signal blocked around the check, so no tick is missed): the same
// loop for both implementations, so cpu_ms is the work each one does.
template <class Impl>
double seed_stress(unsigned long chunk, const kb::round& r) {
    seed = seed_sketch::state{};
    seed_processed = 0;
    seed.count = static_cast<std::uint32_t>(r.scale(100000, 1500));
    seed.chunk = static_cast<std::uint32_t>(chunk);
    const int sig = kairos::ticker::signal_number();
    sigset_t blocked, old;
    sigemptyset(&blocked);
    sigaddset(&blocked, sig);
    pthread_sigmask(SIG_BLOCK, &blocked, &old);
    sigset_t wait_mask = old;
    sigdelset(&wait_mask, sig);

    const std::uint32_t overruns0 = seed_ticker.overruns();
    const double cpu0 = thread_cpu_ms();
    const long long t0 = kb::now_ns();
    if (!seed_ticker.attach_us(1000, &seed_ticker_callback<Impl>)) {
        pthread_sigmask(SIG_SETMASK, &old, nullptr);
        kb::note("ticker attach failed");
        return -1;
    }
    while (seed.pending > 0) {
        const unsigned long before = seed_processed;
        pthread_sigmask(SIG_SETMASK, &wait_mask, nullptr);  // the ticker may interrupt run()
        Impl::run();
        pthread_sigmask(SIG_BLOCK, &blocked, nullptr);
        if (seed_processed == before && seed.pending > 0) sigsuspend(&wait_mask);
    }
    const long long t1 = kb::now_ns();
    const double cpu = thread_cpu_ms() - cpu0;
    seed_ticker.detach();
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    Impl::run();  // nothing should be left; drain in case

    const double wall = static_cast<double>(t1 - t0) / 1e6;
    const unsigned long per_tick = chunk < 32 ? chunk : 32;
    kb::metric("cpu_ms", cpu);
    kb::metric("failed_pushes", static_cast<double>(seed.failed));
    kb::metric("lost", static_cast<double>(seed.lost));
    kb::metric("reordered", static_cast<double>(seed.reordered));
    // Ticks the host kernel merged (signal still pending at the next
    // expiry): they cost wall time to both implementations alike.
    kb::metric("ticks_lost", static_cast<double>(seed_ticker.overruns() - overruns0));
    kb::metric("bound_ms", static_cast<double>(seed.count) / static_cast<double>(per_tick));
    const bool bad_last = seed.next_val != seed.count - 1;
    if (seed.lost || seed.reordered || seed.bad_id || bad_last) {
        kb::note("checkMessage reported lost/reordered/bad messages");
        return -1;
    }
    return wall;
}

kb::case_info seed_case(const char* bench, const char* impl, kb::case_fn fn) {
    kb::case_info c{bench, impl, "ms wall", kb::lower, std::move(fn), {}};
    c.max_rounds = 2;  // 2 x 2 impls x ~3.3-5 s per chunk size: the 90 s budget
    return c;
}

#define SEED_CASES(chunk)                                                                  \
    const int KB_CAT(seed_kairos_, chunk) = kb::add_case(seed_case(                        \
        "deferred.seed_stress." #chunk, "kairos",                                          \
        [](const kb::round& r) { return seed_stress<kairos_impl>(chunk, r); }));           \
    const int KB_CAT(seed_baseline_, chunk) = kb::add_case(seed_case(                      \
        "deferred.seed_stress." #chunk, "esp8266.linked_list",                             \
        [](const kb::round& r) { return seed_stress<baseline_impl>(chunk, r); }))

SEED_CASES(20);
SEED_CASES(30);
SEED_CASES(35);
SEED_CASES(50);

// ---- deferred.schedule_run -------------------------------------------------

template <class Impl>
double schedule_run(const kb::round& r) {
    const long n = r.scale(200000, 20000);
    static long sum;
    sum = 0;
    const long long t0 = kb::now_ns();
    for (long i = 0; i < n; ++i) {
        if (!Impl::schedule([i] { sum += i; })) return -1;
        Impl::run();
    }
    const long long t1 = kb::now_ns();
    if (sum != n * (n - 1) / 2) return -1;
    return static_cast<double>(t1 - t0) / static_cast<double>(n);
}

KB_CASE("deferred.schedule_run", "kairos", "ns/pair", lower, &schedule_run<kairos_impl>);
KB_CASE("deferred.schedule_run", "esp8266.linked_list", "ns/pair", lower,
        &schedule_run<baseline_impl>);

// ---- deferred.schedule_run_signal -----------------------------------------

constexpr int signal_batch = 16;
std::atomic<long> signal_next{0};
long signal_sum = 0;
bool (*signal_push)(long) = nullptr;

template <class Impl>
bool push_one(long v) {
    return Impl::schedule([v] { signal_sum += v; });
}

void on_bench_signal(int) {
    // relaxed: one thread; the handler interrupts it.
    long v = signal_next.load(std::memory_order_relaxed);
    for (int i = 0; i < signal_batch; ++i, ++v) {
        if (!signal_push(v)) break;
    }
    signal_next.store(v, std::memory_order_relaxed);  // relaxed: as above
}

template <class Impl>
double schedule_run_signal(const kb::round& r) {
    const long n = r.scale(200000, 8000) / signal_batch * signal_batch;
    signal_sum = 0;
    signal_next.store(0, std::memory_order_relaxed);  // relaxed: before the signals
    signal_push = &push_one<Impl>;
    struct sigaction sa {}, old {};
    sa.sa_handler = &on_bench_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR2, &sa, &old);
    const pthread_t self = pthread_self();
    const long long t0 = kb::now_ns();
    while (signal_next.load(std::memory_order_relaxed) < n) {  // relaxed: same thread
        pthread_kill(self, SIGUSR2);
        Impl::run();
    }
    const long long t1 = kb::now_ns();
    // The floor both implementations share: the same number of signals with
    // a handler that pushes nothing, per item.
    sa.sa_handler = [](int) {};
    sigaction(SIGUSR2, &sa, nullptr);
    const long long f0 = kb::now_ns();
    for (long i = 0; i < n / signal_batch; ++i) pthread_kill(self, SIGUSR2);
    const long long f1 = kb::now_ns();
    sigaction(SIGUSR2, &old, nullptr);
    kb::metric("signal_floor_ns", static_cast<double>(f1 - f0) / static_cast<double>(n));
    if (signal_sum != n * (n - 1) / 2) return -1;
    return static_cast<double>(t1 - t0) / static_cast<double>(n);
}

KB_CASE("deferred.schedule_run_signal", "kairos", "ns/item", lower,
        &schedule_run_signal<kairos_impl>);
KB_CASE("deferred.schedule_run_signal", "esp8266.linked_list", "ns/item", lower,
        &schedule_run_signal<baseline_impl>);

// ---- deferred.recurrent_idle -----------------------------------------------

constexpr int idle_functions = 32;
constexpr std::uint32_t idle_period_us = 3600u * 1000000u / 2;  // 30 min: never due here

double recurrent_idle_kairos(const kb::round& r) {
    const long n = r.scale(500000, 20000);
    kairos::deferred<2, idle_functions> d;
    static int runs;
    runs = 0;
    for (int i = 0; i < idle_functions; ++i)
        if (!d.schedule_recurrent([] { ++runs; return true; }, idle_period_us)) return -1;
    const long long t0 = kb::now_ns();
    for (long i = 0; i < n; ++i) d.run_recurrent();
    const long long t1 = kb::now_ns();
    if (runs != 0) return -1;
    return static_cast<double>(t1 - t0) / static_cast<double>(n);
}

double recurrent_idle_baseline(const kb::round& r) {
    const long n = r.scale(100000, 4000);
    baseline::esp8266_linked_list b;
    static int runs;
    runs = 0;
    for (int i = 0; i < idle_functions; ++i)
        if (!b.schedule_recurrent_function_us([] { ++runs; return true; }, idle_period_us))
            return -1;
    const long long t0 = kb::now_ns();
    for (long i = 0; i < n; ++i) b.run_scheduled_recurrent_functions();
    const long long t1 = kb::now_ns();
    if (runs != 0) return -1;
    return static_cast<double>(t1 - t0) / static_cast<double>(n);
}

KB_CASE("deferred.recurrent_idle", "kairos", "ns/pass", lower, &recurrent_idle_kairos);
KB_CASE("deferred.recurrent_idle", "esp8266.linked_list", "ns/pass", lower,
        &recurrent_idle_baseline);

const int info = kb::add_info(
    "deferred", "esp8266.linked_list = bench/baselines/esp8266_linked_list.cpp, a reimplementation "
                "of the ESP8266 core's Schedule.cpp (heap nodes, std::function, signals masked "
                "with pthread_sigmask as its interrupt lock)");

}  // namespace

// SPDX-License-Identifier: MIT
// ring_bench.cpp: kairos::spsc_ring / spsc_slot_ring / mpsc_ring against the
// Debian-packaged peer queues (listed in docs/benchmarks.md), protocol of docs/benchmarks.md.
//
//   ring.spsc.throughput  1 producer on CPU 0, 1 consumer on CPU 1, Mitems/s
//   ring.spsc.rtt         ping-pong over two rings, CPU 0 <-> CPU 1, ns/round trip
//   ring.mpsc.throughput  producer on CPU 0; producer + consumer on CPU 1, Mitems/s
//   ring.mpsc.shared_cpu  2 producers sharing CPU 0, consumer on CPU 1, Mitems/s
//   ring.spsc.push_pop    one thread, push then pop with 512 items standing, ns/pair
//   ring.mpsc.push_pop    the same through the multi-producer entry points
//
// Items are 8-byte integers; every case verifies what it received (exact
// sequence, or per-producer sequence for MPSC, or a checksum) and returns -1
// on any mismatch. Each adapter uses its queue's non-blocking try API with
// the configuration whose usable capacity is closest to 1024; the capacity
// actually usable is measured at start-up and shown as cap=.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <type_traits>

#include "backoff.hpp"
#include "bench.hpp"
#include "kairos/config.hpp"

#include "kairos/mpsc_ring.hpp"
#include "kairos/spsc_ring.hpp"
#include "kairos/spsc_slot_ring.hpp"

#if KAIROS_BENCH_HAVE_BOOST_LOCKFREE
#    include <boost/lockfree/queue.hpp>
#    include <boost/lockfree/spsc_queue.hpp>
#endif
#if KAIROS_BENCH_HAVE_READERWRITERQUEUE
#    include <readerwriterqueue/readerwriterqueue.h>
#endif
#if KAIROS_BENCH_HAVE_CONCURRENTQUEUE
#    include <concurrentqueue/concurrentqueue.h>
#endif
#if KAIROS_BENCH_HAVE_ATOMIC_QUEUE
#    include <atomic_queue/atomic_queue.h>
#endif
#if KAIROS_BENCH_HAVE_XENIUM
#    include <xenium/vyukov_bounded_queue.hpp>
#endif
#if KAIROS_BENCH_HAVE_CK
// ck_shim.c: the packaged ck_ring.h does not compile as C++.
extern "C" {
struct kb_ck;
kb_ck* kb_ck_create(unsigned slots);
void kb_ck_destroy(kb_ck* q);
bool kb_ck_enqueue_spsc(kb_ck* q, std::uint64_t v);
bool kb_ck_dequeue_spsc(kb_ck* q, std::uint64_t* v);
bool kb_ck_enqueue_mpsc(kb_ck* q, std::uint64_t v);
bool kb_ck_dequeue_mpsc(kb_ck* q, std::uint64_t* v);
}
#endif

namespace {

using item = std::uint64_t;
constexpr unsigned capacity = 1024;
constexpr int producer_cpu = 0;
constexpr int consumer_cpu = 1;

// ---------------------------------------------------------------- adapters
//
// An adapter owns one queue and exposes push(item) / pop(item&), both
// non-blocking (false = full / empty). `mp` says whether push may be called
// from several threads at once (needed for ring.mpsc.*).

struct kairos_spsc {
    static constexpr const char* name = "kairos";
    static constexpr bool mp = false;
    kairos::spsc_ring<item, capacity> q;
    bool push(item v) { return q.try_push(v); }
    bool pop(item& v) { return q.try_pop(v); }
};

// The slot-signalled SPSC ring (kairos/spsc_slot_ring.hpp): the same
// protocol, a second kairos implementation rather than a peer.
struct kairos_slot_spsc {
    static constexpr const char* name = "kairos.slot";
    static constexpr bool mp = false;
    kairos::spsc_slot_ring<item, capacity> q;
    bool push(item v) { return q.try_push(v); }
    bool pop(item& v) { return q.try_pop(v); }
};

struct kairos_mpsc {
    static constexpr const char* name = "kairos";
    static constexpr bool mp = true;
    kairos::mpsc_ring<item, capacity> q;
    bool push(item v) { return q.try_push(v); }
    bool pop(item& v) { return q.try_pop(v); }
};

#if KAIROS_BENCH_HAVE_BOOST_LOCKFREE
// spsc_queue<capacity<N>> keeps one slack slot internally: N usable.
struct boost_spsc {
    static constexpr const char* name = "boost.spsc_queue";
    static constexpr bool mp = false;
    boost::lockfree::spsc_queue<item, boost::lockfree::capacity<capacity>> q;
    bool push(item v) { return q.push(v); }
    bool pop(item& v) { return q.pop(v); }
};
// queue<capacity<N>>: MPMC Michael-Scott list over a fixed node pool.
struct boost_queue {
    static constexpr const char* name = "boost.queue";
    static constexpr bool mp = true;
    boost::lockfree::queue<item, boost::lockfree::capacity<capacity>> q;
    bool push(item v) { return q.bounded_push(v); }
    bool pop(item& v) { return q.pop(v); }
};
#endif

#if KAIROS_BENCH_HAVE_READERWRITERQUEUE
// ReaderWriterQueue(n) rounds n+1 up to 2^k slots with one slack: n = 1023
// gives one 1024-slot block (1023 usable); n = 1024 would give 2047.
struct moodycamel_rwq {
    static constexpr const char* name = "moodycamel.rwq";
    static constexpr bool mp = false;
    moodycamel::ReaderWriterQueue<item> q{capacity - 1};
    bool push(item v) { return q.try_enqueue(v); }
    bool pop(item& v) { return q.try_dequeue(v); }
};
#endif

#if KAIROS_BENCH_HAVE_CONCURRENTQUEUE
// ConcurrentQueue(n): n/32 pre-allocated blocks shared by implicit
// (per-thread) producers; try_enqueue never allocates a block. Not one FIFO
// across producers (per-producer FIFO only).
struct moodycamel_cq {
    static constexpr const char* name = "moodycamel.cq";
    static constexpr bool mp = true;
    moodycamel::ConcurrentQueue<item> q{capacity};
    bool push(item v) { return q.try_enqueue(v); }
    bool pop(item& v) { return q.try_dequeue(v); }
};
#endif

#if KAIROS_BENCH_HAVE_ATOMIC_QUEUE
// AtomicQueue: the slot itself is the sync point, 0 is the NIL sentinel
// (items here are never 0). SPSC=true for the SPSC benches, MPMC otherwise.
template <bool Spsc>
struct atomic_queue_adapter {
    static constexpr const char* name = "atomic_queue";
    static constexpr bool mp = !Spsc;
    atomic_queue::AtomicQueue<item, capacity, item{0}, true, true, false, Spsc> q;
    bool push(item v) { return q.try_push(v); }
    bool pop(item& v) { return q.try_pop(v); }
};
#endif

#if KAIROS_BENCH_HAVE_CK
// ck_ring: 2^k slots, one slack (1023 usable); spsc or mpsc entry points.
template <bool Mp>
struct ck_adapter {
    static constexpr const char* name = "ck_ring";
    static constexpr bool mp = Mp;
    kb_ck* q = kb_ck_create(capacity);
    ck_adapter() = default;
    ck_adapter(const ck_adapter&) = delete;
    ck_adapter& operator=(const ck_adapter&) = delete;
    ~ck_adapter() { kb_ck_destroy(q); }
    bool push(item v) { return Mp ? kb_ck_enqueue_mpsc(q, v) : kb_ck_enqueue_spsc(q, v); }
    bool pop(item& v) { return Mp ? kb_ck_dequeue_mpsc(q, &v) : kb_ck_dequeue_spsc(q, &v); }
};
#endif

#if KAIROS_BENCH_HAVE_XENIUM
// vyukov_bounded_queue with the lock-free (weak) try_push/try_pop: a slot
// whose other side is still in progress reads as full/empty.
struct xenium_vyukov {
    static constexpr const char* name = "xenium.vyukov";
    static constexpr bool mp = true;
    xenium::vyukov_bounded_queue<item, xenium::policy::default_to_weak<true>> q{capacity};
    bool push(item v) { return q.try_push(v); }
    bool pop(item& v) { return q.try_pop(v); }
};
#endif

// ---------------------------------------------------------------- harness

// backoff (tests/support/backoff.hpp) spins with a pause instruction, then
// yields the CPU: the same policy for every impl. Spins is large where each
// thread owns a CPU and small where threads share one (the MPSC producers).
using ktest::backoff;

// gate releases all participating threads at once, after each is pinned.
class gate {
public:
    explicit gate(int parties) : parties_(parties) {}
    void arrive_and_wait() {
        // acq_rel: our pinning and set-up happen before the others start.
        arrived_.fetch_add(1, std::memory_order_acq_rel);
        backoff<64> b;
        // acquire: pairs with the last arrival's increment.
        while (arrived_.load(std::memory_order_acquire) < parties_) b();
    }

private:
    std::atomic<int> arrived_{0};
    int parties_;
};

// make() allocates the queue outside the timed region and runs one full
// fill-and-drain through it, so every slot page is faulted in and every
// lazily allocated structure (moodycamel blocks) exists before timing.
// Returns null if the queue misbehaves (a pop that does not return the
// pushed value).
template <class Q>
std::unique_ptr<Q> make() {
    auto q = std::make_unique<Q>();
    unsigned n = 0;
    while (n < 4 * capacity && q->push(item{n} + 1)) ++n;
    for (unsigned i = 0; i < n; ++i) {
        item v = 0;
        if (!q->pop(v) || v != item{i} + 1) return nullptr;
    }
    return q;
}

// usable_capacity() counts how many items fit before push first fails.
template <class Q>
unsigned usable_capacity() {
    auto q = std::make_unique<Q>();
    unsigned n = 0;
    while (n < 4 * capacity && q->push(item{n} + 1)) ++n;
    return n;
}

template <class Q>
std::string cap_note() {
    return std::to_string(usable_capacity<Q>());
}

template <class Fn>
void run_on(int cpu, Fn fn) {
    std::thread t([&] {
        kb::pin_this_thread(cpu);
        fn();
    });
    t.join();
}

// deadline_reached() is checked by consumers every 1024 items and whenever
// their backoff yields: slow peers get a time-capped window instead of
// stretching the run (the rate is still items / time).
inline bool deadline_reached(long long deadline) { return kb::now_ns() > deadline; }

// throughput_cap_ns() is the longest timed window of one throughput case.
inline long long throughput_cap_ns(const kb::round& r) {
    return r.quick ? 200'000'000LL : 500'000'000LL;
}

// spsc_throughput(): producer pushes 1..n, the consumer checks it receives
// exactly 1, 2, 3, ... in order; Mitems/s measured by the consumer from the
// gate to the last item or the time cap, after which the producer stops and
// the rest is drained and checked untimed.
template <class Q>
double spsc_throughput(const kb::round& r) {
    const item n = static_cast<item>(r.scale(1L << 20, 1L << 15));
    auto q = make<Q>();
    if (!q) return -1;
    gate g(2);
    std::atomic<bool> stop{false};
    item pushed = 0, expect = 1;
    bool ok = true;
    long long ns = 0;
    std::thread prod([&] {
        kb::pin_this_thread(producer_cpu);
        g.arrive_and_wait();
        item i = 1;
        bool give_up = false;
        for (; i <= n && !give_up; ++i) {
            backoff<1024> b;
            while (!q->push(i)) {
                // relaxed: a hint to give up; the queue orders the items.
                if ((give_up = stop.load(std::memory_order_relaxed))) break;
                b();
            }
        }
        pushed = give_up ? i - 2 : i - 1;
    });
    std::thread cons([&] {
        kb::pin_this_thread(consumer_cpu);
        g.arrive_and_wait();
        const long long t0 = kb::now_ns(), deadline = t0 + throughput_cap_ns(r);
        bool capped = false;
        for (; expect <= n && !capped; ++expect) {
            item v = 0;
            backoff<1024> b;
            while (!q->pop(v)) {
                if (b.n == 1024 && (capped = deadline_reached(deadline))) break;
                b();
            }
            if (capped) break;
            ok &= v == expect;
            if ((expect & 1023) == 0) capped = deadline_reached(deadline);
        }
        ns = kb::now_ns() - t0;
        // relaxed: the producer only needs to notice eventually.
        stop.store(true, std::memory_order_relaxed);
        if (capped) kb::note("time-capped");
    });
    cons.join();
    prod.join();
    const item timed = expect - 1;
    for (item v = 0; q->pop(v); ++expect) ok &= v == expect;  // untimed drain
    if (!ok || expect - 1 != pushed) return -1;  // reordered, lost or duplicated
    return static_cast<double>(timed) * 1e3 / static_cast<double>(ns);
}

// spsc_rtt(): thread A (CPU 0) sends i on ring 1 and waits for i back on
// ring 2; thread B (CPU 1) echoes. One item in flight: pure latency.
template <class Q>
double spsc_rtt(const kb::round& r) {
    const item n = static_cast<item>(r.scale(50000, 2000));
    auto there = make<Q>();
    auto back = make<Q>();
    if (!there || !back) return -1;
    gate g(2);
    bool ok = true;
    long long ns = 0;
    std::thread echo([&] {
        kb::pin_this_thread(consumer_cpu);
        g.arrive_and_wait();
        for (item i = 1; i <= n; ++i) {
            item v = 0;
            backoff<4096> b;
            while (!there->pop(v)) b();
            while (!back->push(v)) b();
        }
    });
    std::thread ping([&] {
        kb::pin_this_thread(producer_cpu);
        g.arrive_and_wait();
        bool good = true;
        long long t0 = kb::now_ns();
        for (item i = 1; i <= n; ++i) {
            item v = 0;
            backoff<4096> b;
            while (!there->push(i)) b();
            while (!back->pop(v)) b();
            good &= v == i;
        }
        ns = kb::now_ns() - t0;
        ok = good;
    });
    ping.join();
    echo.join();
    if (!ok) return -1;
    return static_cast<double>(ns) / static_cast<double>(n);
}

// mpsc_tally checks what a consumer receives from two producers that push
// (id << 32 | seq) with seq = 1, 2, ...: no loss and no duplicate (per
// producer: count, sum and sum of squares against what it pushed) and no
// foreign value; it also counts items that arrive out of per-producer order.
struct mpsc_tally {
    struct per_producer {
        item count = 0, sum = 0, sum_sq = 0, last = 0, reordered = 0;
    } p[2];
    bool ok = true;

    void add(item v) {
        const item id = v >> 32, s = v & 0xffffffffu;
        if (id > 1) {
            ok = false;
            return;
        }
        per_producer& t = p[id];
        t.reordered += s != t.last + 1;
        t.last = s;
        ++t.count;
        t.sum += s;
        t.sum_sq += s * s;
    }

    // verdict() is true when every item arrived exactly once, and in order
    // per producer where the queue promises that (kairos). Reordering by a
    // peer is a finding (kb::note), not a failure of the run.
    template <class Q>
    bool verdict(const item (&pushed)[2]) const {
        bool good = ok;
        for (int id = 0; id < 2; ++id) {
            const item m = pushed[id];
            good &= p[id].count == m && p[id].sum == m * (m + 1) / 2 &&
                    p[id].sum_sq == m * (m + 1) * (2 * m + 1) / 6;
        }
        if (p[0].reordered + p[1].reordered != 0) {
            if (std::string(Q::name) == "kairos") return false;
            kb::note("reordered items of one producer");
        }
        return good;
    }
};

// push_until_stopped() pushes (id << 32 | 1..n) and returns how many went
// in; it gives up early once `stop` is set while the queue is full, and sets
// `done` when it pushed all n. `refused` counts pushes that found it full.
template <class Q, int Spins>
item push_until_stopped(Q& q, item id, item n, const std::atomic<bool>& stop,
                        std::atomic<bool>& done, item& refused) {
    for (item s = 1; s <= n; ++s) {
        backoff<Spins> b;
        while (!q.push(id << 32 | s)) {
            ++refused;
            // relaxed: a hint to give up; the queue orders the items.
            if (stop.load(std::memory_order_relaxed)) return s - 1;
            b();
        }
    }
    // relaxed: only ends the consumer's timed window; join orders the rest.
    done.store(true, std::memory_order_relaxed);
    return n;
}

// mpsc_throughput(): producer 0 on CPU 0 pushes continuously; the thread
// on CPU 1 is producer 1 and the consumer: each turn it tries one push of
// its own, then pops up to 64 items. So two producers really push at the
// same time from two cores (contended claim), one consumer pops, and no CPU
// runs more than one thread. The timed window ends when either producer has
// pushed all its items (after that it would be a 1-producer measurement) or
// after the time cap; Mitems/s consumed in the window.
template <class Q>
double mpsc_throughput(const kb::round& r) {
    const item n = static_cast<item>(r.scale(1L << 20, 1L << 15));
    auto q = make<Q>();
    if (!q) return -1;
    gate g(2);
    std::atomic<bool> stop{false};
    item pushed[2] = {0, 0};
    mpsc_tally tally;
    item timed = 0;
    long long ns = 0;
    item refused = 0, empty_turns = 0;
    std::atomic<bool> done0{false};
    std::thread remote([&] {
        kb::pin_this_thread(producer_cpu);
        g.arrive_and_wait();
        pushed[0] = push_until_stopped<Q, 1024>(*q, 0, n, stop, done0, refused);
    });
    std::thread local([&] {
        kb::pin_this_thread(consumer_cpu);
        g.arrive_and_wait();
        const long long t0 = kb::now_ns(), deadline = t0 + throughput_cap_ns(r);
        item own = 1;  // producer 1's next sequence number
        bool capped = false;
        // relaxed: done0 only ends the window; the items carry their own order.
        for (unsigned turn = 1; own <= n && !done0.load(std::memory_order_relaxed) && !capped;
             ++turn) {
            if (q->push(item{1} << 32 | own)) ++own;
            int k = 0;
            for (item v = 0; k < 64 && q->pop(v); ++k) tally.add(v);
            timed += static_cast<item>(k);
            if (k == 0) {
                ++empty_turns;
                kairos::cpu_relax();  // nothing from producer 0 yet
            }
            if ((turn & 255) == 0) capped = deadline_reached(deadline);
        }
        ns = kb::now_ns() - t0;
        pushed[1] = own - 1;
        // relaxed: producer 0 only needs to notice eventually.
        stop.store(true, std::memory_order_relaxed);
        if (capped) kb::note("time-capped");
    });
    local.join();
    remote.join();
    for (item v = 0; q->pop(v);) tally.add(v);  // untimed drain
    if (!tally.verdict<Q>(pushed)) return -1;
    // Where the time went: producer 0 refused (queue full) or the consumer
    // finding nothing, per item.
    kb::metric("full_per_item", static_cast<double>(refused) / static_cast<double>(pushed[0] + 1));
    kb::metric("empty_per_item", static_cast<double>(empty_turns) / static_cast<double>(timed + 1));
    return static_cast<double>(timed) * 1e3 / static_cast<double>(ns);
}

// mpsc_shared_cpu(): two producers both pinned to CPU 0, the consumer alone
// on CPU 1. The producers preempt each other in the middle of a push (the
// thread-versus-ISR case), so this measures behaviour under preemption more
// than speed, and varies a lot from round to round: a queue whose producers
// commit in ticket order (ck_ring) convoys, one item per scheduler slice,
// and a queue whose slot is its only sync point (atomic_queue) can hand out
// a lapped slot and reorder a producer's items. Capped at half the usual cap.
template <class Q>
double mpsc_shared_cpu(const kb::round& r) {
    const item n = static_cast<item>(r.scale(1L << 17, 1L << 13));
    auto q = make<Q>();
    if (!q) return -1;
    gate g(3);
    std::atomic<bool> stop{false};
    item pushed[2] = {0, 0};
    item refused[2] = {0, 0};
    std::atomic<bool> done{false};
    auto producer = [&](item id) {
        kb::pin_this_thread(producer_cpu);
        g.arrive_and_wait();
        pushed[id] = push_until_stopped<Q, 64>(*q, id, n, stop, done, refused[id]);
    };
    std::thread p0(producer, item{0});
    std::thread p1(producer, item{1});
    mpsc_tally tally;
    item timed = 0;
    long long ns = 0;
    std::thread cons([&] {
        kb::pin_this_thread(consumer_cpu);
        g.arrive_and_wait();
        const long long t0 = kb::now_ns(), deadline = t0 + throughput_cap_ns(r) / 2;
        bool capped = false;
        // The window ends when one producer is done: from then on only one
        // pushes. relaxed: `done` only ends the window.
        auto over = [&] {
            return deadline_reached(deadline) || done.load(std::memory_order_relaxed);
        };
        for (; timed < 2 * n && !capped; ++timed) {
            item v = 0;
            backoff<1024> b;
            while (!q->pop(v)) {
                if (b.n == 1024 && (capped = over())) break;
                b();
            }
            if (capped) break;
            tally.add(v);
            if ((timed & 1023) == 1023) capped = over();
        }
        if (deadline_reached(deadline)) kb::note("time-capped");
        ns = kb::now_ns() - t0;
        // relaxed: producers only need to notice eventually; join orders the rest.
        stop.store(true, std::memory_order_relaxed);
    });
    cons.join();
    p0.join();
    p1.join();
    for (item v = 0; q->pop(v);) tally.add(v);  // untimed drain
    if (!tally.verdict<Q>(pushed)) return -1;
    kb::metric("full_per_item", static_cast<double>(refused[0] + refused[1]) /
                                    static_cast<double>(pushed[0] + pushed[1] + 1));
    return static_cast<double>(timed) * 1e3 / static_cast<double>(ns);
}

// push_pop(): one thread, 512 items standing in the ring, then n times
// push one + pop one; the popped values are summed and checked. The ring
// wraps n/1024 times; a cached remote index is refreshed about every 512
// operations, as in steady streaming.
template <class Q>
double push_pop(const kb::round& r) {
    const item n = static_cast<item>(r.scale(1L << 22, 1L << 14));
    constexpr item standing = capacity / 2;
    auto q = make<Q>();
    if (!q) return -1;
    double result = -1;
    run_on(producer_cpu, [&] {
        Q& ring = *q;
        const item count = n;  // a local: the loop does not reload it through a reference
        item next = 1;
        for (; next <= standing; ++next)
            if (!ring.push(next)) return;
        item sum = 0;
        bool good = true;
        long long t0 = kb::now_ns();
        for (item i = 0; i < count; ++i) {
            item v = 0;
            good &= ring.push(next++);
            good &= ring.pop(v);
            sum += v;
        }
        long long ns = kb::now_ns() - t0;
        kb::do_not_optimize(sum);
        if (good && sum == n * (n + 1) / 2)
            result = static_cast<double>(ns) / static_cast<double>(n);
    });
    return result;
}

// ---------------------------------------------------------------- registration

template <class Q>
void add_spsc() {
    std::vector<std::pair<std::string, std::string>> extra = {{"cap", cap_note<Q>()}};
    kb::add_case({"ring.spsc.throughput", Q::name, "Mitems/s", kb::higher, spsc_throughput<Q>,
                  extra});
    kb::add_case({"ring.spsc.rtt", Q::name, "ns/rtt", kb::lower, spsc_rtt<Q>, extra});
    kb::add_case({"ring.spsc.push_pop", Q::name, "ns/pair", kb::lower, push_pop<Q>, extra});
}

template <class Q>
void add_mpsc() {
    static_assert(Q::mp, "ring.mpsc needs a multi-producer queue");
    std::vector<std::pair<std::string, std::string>> extra = {{"cap", cap_note<Q>()}};
    kb::add_case({"ring.mpsc.throughput", Q::name, "Mitems/s", kb::higher, mpsc_throughput<Q>,
                  extra});
    kb::add_case({"ring.mpsc.shared_cpu", Q::name, "Mitems/s", kb::higher, mpsc_shared_cpu<Q>,
                  extra});
    kb::add_case({"ring.mpsc.push_pop", Q::name, "ns/pair", kb::lower, push_pop<Q>, extra});
}

[[maybe_unused]] void skip_all(const char* impl, const char* package, bool mp) {
    kb::add_skip("ring.spsc.throughput", impl, package);
    kb::add_skip("ring.spsc.rtt", impl, package);
    kb::add_skip("ring.spsc.push_pop", impl, package);
    if (mp) {
        kb::add_skip("ring.mpsc.throughput", impl, package);
        kb::add_skip("ring.mpsc.shared_cpu", impl, package);
        kb::add_skip("ring.mpsc.push_pop", impl, package);
    }
}

int register_rings() {
    add_spsc<kairos_spsc>();
    add_spsc<kairos_slot_spsc>();
    add_mpsc<kairos_mpsc>();
#if KAIROS_BENCH_HAVE_BOOST_LOCKFREE
    add_spsc<boost_spsc>();
    add_spsc<boost_queue>();
    add_mpsc<boost_queue>();
#else
    skip_all("boost.spsc_queue", "libboost-dev", false);
    skip_all("boost.queue", "libboost-dev", true);
#endif
#if KAIROS_BENCH_HAVE_READERWRITERQUEUE
    add_spsc<moodycamel_rwq>();
#else
    skip_all("moodycamel.rwq", "libreaderwriterqueue-dev", false);
#endif
#if KAIROS_BENCH_HAVE_CONCURRENTQUEUE
    add_spsc<moodycamel_cq>();
    add_mpsc<moodycamel_cq>();
#else
    skip_all("moodycamel.cq", "libconcurrentqueue-dev", true);
#endif
#if KAIROS_BENCH_HAVE_ATOMIC_QUEUE
    add_spsc<atomic_queue_adapter<true>>();
    add_mpsc<atomic_queue_adapter<false>>();
#else
    skip_all("atomic_queue", "libatomic-queue-dev", true);
#endif
#if KAIROS_BENCH_HAVE_CK
    add_spsc<ck_adapter<false>>();
    add_mpsc<ck_adapter<true>>();
#else
    skip_all("ck_ring", "libck-dev", true);
#endif
#if KAIROS_BENCH_HAVE_XENIUM
    add_spsc<xenium_vyukov>();
    add_mpsc<xenium_vyukov>();
#else
    skip_all("xenium.vyukov", "libxenium-dev", true);
#endif
    return 0;
}

const int registered = register_rings();

}  // namespace

// SPDX-License-Identifier: MIT
// kairos_soak: a long run of every ring and of the deferred scheduler with
// signal-handler producers, reporting items, lost, duplicated, reordered
// and corrupt per ring, and the duration.
//
//   kairos_soak [--items N] [--deferred N] [--inject loss|dup|reorder|corrupt]
//
// --items is the count per ring (spsc_ring, mpsc_ring, circular_queue,
// circular_queue_mp, and the ESP8266 compat ::circular_queue and
// ::circular_queue_mp), --deferred the count of one-shot functions run by
// kairos::deferred. --inject makes the consumer drop, repeat, swap or
// damage one item of each stream after popping it, so a test can prove
// the checks see each kind of fault. Exit status 0 only when every count
// of faults is zero.
//
// Producers per ring: thread T0, the target of a POSIX timer (SIGUSR1,
// SIGEV_THREAD_ID) whose kairos interrupt handler (kairos::host::
// attach_signal) pushes a batch of its own stream; on the multi-producer
// rings also thread T1. On the single-producer rings T0 pushes inside
// port::irq_disable()/irq_restore(), so the handler and T0 are never inside
// a push at once (a handler arriving then is deferred to the unmasking
// irq_restore(), the path an MCU's PRIMASK gives); on the others the
// handler interrupts T0 mid-push. The consumer is the main thread.
//
// Each item carries (stream, sequence) and a checksum of both. The checker
// follows each stream: the next expected sequence is accepted; a later one
// opens a gap (the skipped sequences are remembered as missing, up to
// max_tracked_gap per gap, beyond that counted lost at once); an earlier
// one is "reordered" if it fills a gap and "duplicated" otherwise. At the
// end every sequence a producer says it pushed and that never arrived is
// lost. The run stops on counts, never on wall time.
#include <circular_queue.h>
#include <circular_queue_mp.h>
#include <kairos/circular_queue.hpp>
#include <kairos/deferred.hpp>
#include <kairos/mpsc_ring.hpp>
#include <kairos/port.hpp>
#include <kairos/spsc_ring.hpp>

#include <kairos_host.hpp>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <thread>

#include "backoff.hpp"
#include "signal_timer.hpp"

namespace {

using backoff = ktest::backoff<64>;

// ---- items and the checker --------------------------------------------------

constexpr int streams = 3;  // T0, T1, the signal handler
constexpr int handler_stream = 2;
constexpr int stream_shift = 56;
constexpr std::uint64_t seq_mask = (std::uint64_t{1} << stream_shift) - 1;
constexpr std::uint64_t max_tracked_gap = 4096;

// mix() is the splitmix64 finaliser: the checksum of a tag.
constexpr std::uint64_t mix(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

struct item {
    std::uint64_t tag = 0;  // stream << stream_shift | sequence
    std::uint64_t sum = 0;  // mix(tag)
};

item make_item(int stream, std::uint64_t seq) {
    const std::uint64_t tag = std::uint64_t(stream) << stream_shift | seq;
    return {tag, mix(tag)};
}

enum class inject { none, loss, dup, reorder, corrupt };
const char* const inject_names[] = {"none", "loss", "dup", "reorder", "corrupt"};

// stream_check follows one producer's sequence.
struct stream_check {
    std::uint64_t next = 0;
    std::set<std::uint64_t> missing;  // skipped, may still come (reordered)
    std::uint64_t lost_untracked = 0;  // skipped beyond max_tracked_gap
    std::uint64_t duplicated = 0;
    std::uint64_t reordered = 0;

    void see(std::uint64_t seq) {
        if (seq == next) {
            ++next;
        } else if (seq > next) {
            const std::uint64_t gap = seq - next;
            if (gap <= max_tracked_gap) {
                for (std::uint64_t s = next; s < seq; ++s) missing.insert(s);
            } else {
                lost_untracked += gap;
            }
            next = seq + 1;
        } else if (missing.erase(seq) != 0) {
            ++reordered;
        } else {
            ++duplicated;
        }
    }
};

struct totals {
    std::uint64_t items = 0, lost = 0, duplicated = 0, reordered = 0, corrupt = 0;
    bool clean() const { return lost == 0 && duplicated == 0 && reordered == 0 && corrupt == 0; }
    void add(const totals& o) {
        items += o.items;
        lost += o.lost;
        duplicated += o.duplicated;
        reordered += o.reordered;
        corrupt += o.corrupt;
    }
};

// checker sees every item the consumer takes; injection happens here.
struct checker {
    stream_check s[streams];
    std::uint64_t items = 0, corrupt = 0;
    inject mode = inject::none;
    std::uint64_t inject_at = 0;  // the consumer's item number to tamper with
    bool held = false;            // reorder: an item kept back until its stream moves on
    item kept{};

    void deliver(item v) {
        const std::uint64_t n = items++;
        if (mode != inject::none && n == inject_at) {
            switch (mode) {
                case inject::loss: return;
                case inject::dup: see(v); break;
                case inject::reorder: kept = v; held = true; return;
                case inject::corrupt: v.sum ^= 1; break;
                case inject::none: break;
            }
        }
        see(v);
        if (held && v.tag >> stream_shift == kept.tag >> stream_shift) {
            held = false;  // after a later item of its own stream
            see(kept);
        }
    }

    void see(const item& v) {
        const std::uint64_t id = v.tag >> stream_shift;
        if (v.sum != mix(v.tag) || id >= streams) {
            ++corrupt;
            return;
        }
        s[id].see(v.tag & seq_mask);
    }

    // finish(produced) closes the run: produced[i] is how many items stream
    // i's producer pushed.
    totals finish(const std::uint64_t (&produced)[streams]) {
        totals t;
        t.items = items;
        t.corrupt = corrupt;
        for (int i = 0; i < streams; ++i) {
            stream_check& c = s[i];
            t.lost += c.missing.size() + c.lost_untracked;
            if (c.next < produced[i]) t.lost += produced[i] - c.next;
            if (c.next > produced[i]) t.corrupt += c.next - produced[i];  // never pushed
            t.duplicated += c.duplicated;
            t.reordered += c.reordered;
        }
        return t;
    }
};

// ---- the signal producer ----------------------------------------------------
//
// The handler is a kairos interrupt on T0. It pushes up to handler_batch
// items of its own stream through push_fn (set per phase before the timer
// starts, cleared after T0 has ended). A full ring is retried at the next
// signal: nothing is dropped.
constexpr std::size_t handler_batch = 32;
std::atomic<void (*)()> push_fn{nullptr};
std::atomic<std::uint64_t> handler_seq{0};  // the handler's next sequence
std::atomic<std::uint64_t> signals{0};

void on_signal() {
    // relaxed: written before the timer starts, read on the thread it hits.
    if (void (*f)() = push_fn.load(std::memory_order_relaxed)) f();
    signals.fetch_add(1, std::memory_order_relaxed);  // relaxed: a statistic
}

// handler_push<R, r>() pushes the handler's next batch into r.
template <class R, R& r>
void handler_push() {
    // relaxed: handler_seq is this handler's state, read by the main thread
    // only after T0 (the only thread the signal hits) has been joined.
    const std::uint64_t seq = handler_seq.load(std::memory_order_relaxed);
    item buf[handler_batch];
    for (std::size_t k = 0; k < handler_batch; ++k) buf[k] = make_item(handler_stream, seq + k);
    const std::size_t put = r.push_n(buf, handler_batch);
    handler_seq.store(seq + put, std::memory_order_relaxed);
}

// ---- one ring ---------------------------------------------------------------

constexpr std::size_t batch = 64;
constexpr std::size_t pop_batch = 256;
constexpr long signal_period_ns = 20000;

struct options {
    std::uint64_t items = 1'000'000'000;
    std::uint64_t deferred = 100'000'000;
    inject mode = inject::none;
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void print(const char* name, const totals& t, std::uint64_t handler_items, double s) {
    std::printf("%-24s items %llu lost %llu duplicated %llu reordered %llu corrupt %llu "
                "handler_items %llu seconds %.1f\n",
                name, static_cast<unsigned long long>(t.items), static_cast<unsigned long long>(t.lost),
                static_cast<unsigned long long>(t.duplicated),
                static_cast<unsigned long long>(t.reordered), static_cast<unsigned long long>(t.corrupt),
                static_cast<unsigned long long>(handler_items), s);
    std::fflush(stdout);
}

// producer_loop pushes stream id into r until stop, mixing single pushes
// and batches; masked: each push inside irq_disable()/irq_restore().
// Returns how many it pushed.
template <class R>
std::uint64_t producer_loop(R& r, int id, bool masked, const std::atomic<bool>& stop) {
    backoff wait;
    item buf[batch];
    std::uint64_t seq = 0;
    // relaxed: a stop flag; the ring orders the items.
    while (!stop.load(std::memory_order_relaxed)) {
        std::size_t put;
        const kairos::port::irq_state s = masked ? kairos::port::irq_disable() : kairos::port::irq_state{};
        if (seq % 8 == 0) {
            put = r.try_push(make_item(id, seq)) ? 1 : 0;
        } else {
            for (std::size_t k = 0; k < batch; ++k) buf[k] = make_item(id, seq + k);
            put = r.push_n(buf, batch);
        }
        if (masked) kairos::port::irq_restore(s);
        seq += put;
        if (put == 0) wait();
    }
    return seq;
}

template <class R, R& r>
totals soak_ring(const char* name, bool multi_producer, const options& o) {
    const auto t0 = std::chrono::steady_clock::now();
    handler_seq.store(0, std::memory_order_relaxed);  // relaxed: no producer runs yet
    push_fn.store(&handler_push<R, r>, std::memory_order_relaxed);  // relaxed: before the timer
    std::atomic<bool> stop{false};
    std::atomic<pid_t> tid0{0};
    std::uint64_t produced[streams] = {};
    std::thread p0([&] {
        // release/acquire: the main thread reads the tid to aim the timer.
        tid0.store(ktest::this_tid(), std::memory_order_release);
        produced[0] = producer_loop(r, 0, !multi_producer, stop);
    });
    std::thread p1;
    if (multi_producer) p1 = std::thread([&] { produced[1] = producer_loop(r, 1, false, stop); });
    while (tid0.load(std::memory_order_acquire) == 0) std::this_thread::yield();

    checker check;
    check.mode = o.mode;
    check.inject_at = o.items / 2;
    {
        ktest::signal_timer tick(tid0.load(std::memory_order_relaxed), SIGUSR1,  // relaxed: read above
                                 signal_period_ns);
        if (!tick.ok()) {
            std::perror("kairos_soak: timer");
            std::exit(2);
        }
        backoff wait;
        item buf[pop_batch];
        while (check.items < o.items) {
            std::size_t got = 0;
            if (check.items % 4 == 1) {
                if (r.try_pop(buf[0])) got = 1;
            } else {
                got = r.pop_n(buf, pop_batch);
            }
            for (std::size_t k = 0; k < got; ++k) check.deliver(buf[k]);
            if (got == 0) wait();
        }
    }  // the timer is deleted; a signal already queued runs on T0 before it exits
    stop.store(true, std::memory_order_relaxed);  // relaxed: a flag, see producer_loop
    p0.join();
    if (p1.joinable()) p1.join();
    push_fn.store(nullptr, std::memory_order_relaxed);  // relaxed: T0 has ended
    produced[handler_stream] = handler_seq.load(std::memory_order_relaxed);  // relaxed: T0 joined
    item v;
    while (r.try_pop(v)) check.deliver(v);
    const totals t = check.finish(produced);
    print(name, t, produced[handler_stream], seconds_since(t0));
    return t;
}

// ---- deferred ---------------------------------------------------------------

using deferred_t = kairos::deferred<1024, 1, sizeof(item)>;
deferred_t sched;
checker* deferred_check = nullptr;  // set while the deferred phase runs

// schedule_item(stream, seq) queues a function that delivers the item.
bool schedule_item(int stream, std::uint64_t seq) {
    return sched.schedule([v = make_item(stream, seq)] { deferred_check->deliver(v); });
}

void handler_schedule() {
    // relaxed: the handler's own state, as in handler_push().
    std::uint64_t seq = handler_seq.load(std::memory_order_relaxed);
    for (std::size_t k = 0; k < handler_batch && schedule_item(handler_stream, seq); ++k) ++seq;
    handler_seq.store(seq, std::memory_order_relaxed);
}

totals soak_deferred(const options& o) {
    const auto t0 = std::chrono::steady_clock::now();
    handler_seq.store(0, std::memory_order_relaxed);  // relaxed: no producer runs yet
    push_fn.store(&handler_schedule, std::memory_order_relaxed);  // relaxed: before the timer
    checker check;
    check.mode = o.mode;
    check.inject_at = o.deferred / 2;
    deferred_check = &check;
    std::atomic<bool> stop{false};
    std::atomic<pid_t> tid0{0};
    std::uint64_t produced[streams] = {};
    auto producer = [&](int id) {
        backoff wait;
        std::uint64_t seq = 0;
        // relaxed: a stop flag; the deferred queue orders the functions.
        while (!stop.load(std::memory_order_relaxed)) {
            if (schedule_item(id, seq)) {
                ++seq;
            } else {
                wait();
            }
        }
        produced[id] = seq;
    };
    std::thread p0([&] {
        // release/acquire: the main thread reads the tid to aim the timer.
        tid0.store(ktest::this_tid(), std::memory_order_release);
        producer(0);
    });
    std::thread p1(producer, 1);
    while (tid0.load(std::memory_order_acquire) == 0) std::this_thread::yield();
    {
        ktest::signal_timer tick(tid0.load(std::memory_order_relaxed), SIGUSR1,  // relaxed: read above
                                 signal_period_ns);
        if (!tick.ok()) {
            std::perror("kairos_soak: timer");
            std::exit(2);
        }
        backoff wait;
        while (check.items < o.deferred) {
            if (sched.run() == 0) wait();
        }
    }
    stop.store(true, std::memory_order_relaxed);  // relaxed: a flag, see producer
    p0.join();
    p1.join();
    push_fn.store(nullptr, std::memory_order_relaxed);  // relaxed: T0 has ended
    produced[handler_stream] = handler_seq.load(std::memory_order_relaxed);  // relaxed: T0 joined
    while (sched.run() != 0) {
    }
    deferred_check = nullptr;
    const totals t = check.finish(produced);
    print("deferred", t, produced[handler_stream], seconds_since(t0));
    return t;
}

// ---- the rings --------------------------------------------------------------

constexpr std::size_t dyn_capacity = 1000;  // not a power of two: exact capacity
kairos::spsc_ring<item, 1024> spsc;
kairos::mpsc_ring<item, 1024> mpsc;
kairos::circular_queue<item> cq(dyn_capacity);
kairos::circular_queue_mp<item> cq_mp(dyn_capacity);
::circular_queue<item> compat_cq(dyn_capacity);  // the ESP8266 core's spelling
::circular_queue_mp<item> compat_cq_mp(dyn_capacity);

std::uint64_t parse_count(const char* s) {
    char* end = nullptr;
    const double v = std::strtod(s, &end);  // 1e9 and 1000000000 both accepted
    if (end == s || *end != '\0' || v < 1) {
        std::fprintf(stderr, "kairos_soak: bad count '%s'\n", s);
        std::exit(2);
    }
    return static_cast<std::uint64_t>(v);
}

}  // namespace

int main(int argc, char** argv) {
    options o;
    for (int i = 1; i < argc; ++i) {
        const bool has_value = i + 1 < argc;
        if (std::strcmp(argv[i], "--items") == 0 && has_value) {
            o.items = parse_count(argv[++i]);
        } else if (std::strcmp(argv[i], "--deferred") == 0 && has_value) {
            o.deferred = parse_count(argv[++i]);
        } else if (std::strcmp(argv[i], "--inject") == 0 && has_value) {
            const char* m = argv[++i];
            o.mode = inject::none;
            for (int k = 1; k < 5; ++k) {
                if (std::strcmp(m, inject_names[k]) == 0) o.mode = static_cast<inject>(k);
            }
            if (o.mode == inject::none) {
                std::fprintf(stderr, "kairos_soak: bad --inject '%s'\n", m);
                return 2;
            }
        } else {
            std::fprintf(stderr,
                         "usage: kairos_soak [--items N] [--deferred N] "
                         "[--inject loss|dup|reorder|corrupt]\n");
            return 2;
        }
    }
    // The timers aim SIGUSR1 at T0 only (SIGEV_THREAD_ID).
    if (!kairos::host::attach_signal(SIGUSR1, &on_signal)) {
        std::fprintf(stderr, "kairos_soak: attach_signal failed\n");
        return 2;
    }
    std::printf("kairos_soak: %llu items per ring, %llu deferred functions, inject %s\n",
                static_cast<unsigned long long>(o.items), static_cast<unsigned long long>(o.deferred),
                inject_names[static_cast<int>(o.mode)]);
    const auto t0 = std::chrono::steady_clock::now();
    totals all;
    all.add(soak_ring<decltype(spsc), spsc>("spsc_ring", false, o));
    all.add(soak_ring<decltype(mpsc), mpsc>("mpsc_ring", true, o));
    all.add(soak_ring<decltype(cq), cq>("circular_queue", false, o));
    all.add(soak_ring<decltype(cq_mp), cq_mp>("circular_queue_mp", true, o));
    all.add(soak_ring<decltype(compat_cq), compat_cq>("compat_circular_queue", false, o));
    all.add(soak_ring<decltype(compat_cq_mp), compat_cq_mp>("compat_circular_queue_mp", true, o));
    all.add(soak_deferred(o));
    std::printf("total items %llu lost %llu duplicated %llu reordered %llu corrupt %llu "
                "signals %llu seconds %.1f: %s\n",
                static_cast<unsigned long long>(all.items), static_cast<unsigned long long>(all.lost),
                static_cast<unsigned long long>(all.duplicated),
                static_cast<unsigned long long>(all.reordered),
                static_cast<unsigned long long>(all.corrupt),
                static_cast<unsigned long long>(signals.load(std::memory_order_relaxed)),  // relaxed: all joined
                seconds_since(t0), all.clean() ? "PASS" : "FAIL");
    return all.clean() ? 0 : 1;
}

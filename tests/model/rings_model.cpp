// SPDX-License-Identifier: MIT
// rings_model runs one Relacy model-checking scenario of the kairos rings:
//   rings_model <scenario> [iterations]
// Every element carries an rl::var, so an element read or written without
// a happens-before edge from the other side is reported as a data race;
// values are checked for FIFO order per producer, loss and duplication.
// Exhaustive context-bounded search where it fits the CI budget, random
// schedules otherwise (docs/design/verification.md). Prints
// "model: PASSED <scenario>" or "model: FAILED <scenario>".
#include "model.hpp"

#include <cstdlib>
#include <cstring>

// A violated ring precondition ends the run: the scenarios never misuse
// the API, so this is a model failure.
extern "C" void kairos_assert_failed(const char* expr, const char* file, int line) noexcept {
    std::fprintf(stderr, "model: FAILED kairos assertion %s (%s:%d)\n", expr, file, line);
    std::abort();
}

namespace {

// shadow(p) is the Relacy-tracked cell standing for the element at address
// p. Ring slots are raw storage: an rl::var inside the element would start a
// fresh history each time a slot is reused, hiding races between the
// consumer's last access and the producer's next construction. Cells belong
// to the running iteration (cells, constructed with the test suite); Relacy
// switches threads only at tracked operations, so the lookup is atomic.
struct cells {
    static constexpr unsigned max = 64;
    static inline cells* current = nullptr;
    rl::var<unsigned> var[max];
    const void* addr[max] = {};
    unsigned used = 0;
    cells() { current = this; }
    static rl::var<unsigned>& at(const void* p) {
        cells& c = *current;
        for (unsigned i = 0; i < c.used; ++i) {
            if (c.addr[i] == p) return c.var[i];
        }
        RL_ASSERT(c.used < max);
        c.addr[c.used] = p;
        return c.var[c.used++];
    }
};

// item is a ring element whose payload, construction and destruction are
// tracked accesses of its address's cell.
struct item {
    explicit item(unsigned x = 0) { put(x); }
    item(item&& o) noexcept { put(o.get()); }
    item(const item& o) noexcept { put(o.get()); }
    item& operator=(item&& o) noexcept {
        put(o.get());
        return *this;
    }
    ~item() { put(~0u); }
    unsigned get() const { return cells::at(this)($).load(); }

private:
    void put(unsigned x) { cells::at(this)($).store(x); }
    char byte_ = 0;  // gives each item an address of its own
};

// order checks values producer * 16 + k: each producer's k strictly rise.
struct order {
    unsigned next[4] = {0, 0, 0, 0};
    unsigned got = 0;
    void see(unsigned x) {
        const unsigned p = x / 16, k = x % 16;
        RL_ASSERT(p < 4 && k == next[p]);
        next[p] = k + 1;
        ++got;
    }
};

constexpr unsigned tries = 4;  // bounded consumer attempts (no spin loops)

// ---- SPSC -----------------------------------------------------------------

// spsc_try<Ring, Start>: try_push / try_pop across the 8-bit index wrap,
// for spsc_ring and spsc_slot_ring.
template <class Ring, std::uint8_t Start>
struct spsc_try : rl::test_suite<spsc_try<Ring, Start>, 2> {
    cells c;
    Ring r{Start};
    unsigned pushed = 0;
    order o;
    void thread(unsigned id) {
        if (id == 0) {
            for (unsigned k = 0; k < 3; ++k) {
                if (!r.try_push(item(k))) break;
                ++pushed;
            }
        } else {
            item out;
            for (unsigned i = 0; i < tries; ++i) {
                if (r.try_pop(out)) o.see(out.get());
            }
        }
    }
    void after() {
        item out;
        while (r.try_pop(out)) o.see(out.get());
        RL_ASSERT(o.got == pushed);
    }
};

// spsc_calls: push_n on one side; front/pop, consume, pop_n, requeue on
// the other.
struct spsc_calls : rl::test_suite<spsc_calls, 2> {
    cells c;
    kairos::spsc_ring<item, 2, std::uint8_t> r{std::uint8_t{255}};
    unsigned pushed = 0;
    order o;
    void thread(unsigned id) {
        if (id == 0) {
            item in[3] = {item(0), item(1), item(2)};
            pushed += static_cast<unsigned>(r.push_n(in, 2));
            if (r.try_push(item(pushed))) ++pushed;
        } else {
            if (item* f = r.front()) {
                o.see(f->get());
                r.pop();
            }
            (void)r.requeue([](item&) { return true; });
            (void)r.consume([&](item&& e) { o.see(e.get()); }, 1);
            item out[2];
            const std::size_t k = r.pop_n(out, 2);
            for (std::size_t i = 0; i < k; ++i) o.see(out[i].get());
        }
    }
    void after() {
        (void)r.consume([&](item&& e) { o.see(e.get()); });
        RL_ASSERT(o.got == pushed);
    }
};

// ---- MPSC -----------------------------------------------------------------

// model_section is rmw_masked's critical section in the model: a spin lock
// with acquire/release, which gives what masking gives on one core (mutual
// exclusion, and the order of one section before the next).
struct model_section {
    using state = int;
    static inline kairos_model::model_atomic<int>* lock = nullptr;
    static state enter() noexcept {
        while (lock->exchange(1, rl::mo_acquire, $) != 0) rl::yield(1, $);
        return 0;
    }
    static void leave(state) noexcept { lock->store(0, rl::mo_release, $); }
};

// mpsc_try<P, Ring>: P producers push 2 each (try_push), the consumer
// try_pop / try_consume / front+pop; the rest is drained after the run.
template <unsigned P, class Ring, std::uint64_t Start>
struct mpsc_try : rl::test_suite<mpsc_try<P, Ring, Start>, P + 1> {
    cells c;
    kairos_model::model_atomic<int> lock{0};
    Ring r{static_cast<typename Ring::index_type>(Start)};
    kairos_model::model_atomic<unsigned> pushed{0};
    order o;
    void before() { model_section::lock = &lock; }
    void thread(unsigned id) {
        if (id < P) {
            for (unsigned k = 0; k < 2; ++k) {
                if (!r.try_push(item(id * 16 + k))) break;
                (void)pushed.fetch_add(1, rl::mo_relaxed, $);
            }
        } else {
            item out;
            if (r.try_pop(out)) o.see(out.get());
            (void)r.try_consume([&](item&& e) { o.see(e.get()); });
            if (item* f = r.front()) {
                o.see(f->get());
                r.pop();
            }
        }
    }
    void after() {
        item out;
        while (r.try_pop(out)) o.see(out.get());
        RL_ASSERT(o.got == pushed.load(rl::mo_relaxed, $));
    }
};

// mpsc_batch<Ring>: two producers push_n 2 each; the consumer pop_n,
// consume, requeue, try_pop_strong.
template <class Ring, std::uint64_t Start>
struct mpsc_batch : rl::test_suite<mpsc_batch<Ring, Start>, 3> {
    cells c;
    kairos_model::model_atomic<int> lock{0};
    Ring r{static_cast<typename Ring::index_type>(Start)};
    kairos_model::model_atomic<unsigned> pushed{0};
    order o;
    void before() { model_section::lock = &lock; }
    void thread(unsigned id) {
        if (id < 2) {
            item in[2] = {item(id * 16), item(id * 16 + 1)};
            const auto k = static_cast<unsigned>(r.push_n(in, 2));
            (void)pushed.fetch_add(k, rl::mo_relaxed, $);
        } else {
            item out[2];
            const std::size_t k = r.pop_n(out, 2);
            for (std::size_t i = 0; i < k; ++i) o.see(out[i].get());
            (void)r.requeue([](item&) { return true; });
            (void)r.consume([&](item&& e) { o.see(e.get()); }, 1);
            item one;
            if (r.try_pop_strong(one)) o.see(one.get());
        }
    }
    void after() {
        item out;
        while (r.try_pop(out)) o.see(out.get());
        RL_ASSERT(o.got == pushed.load(rl::mo_relaxed, $));
    }
};

// ---- circular_queue -------------------------------------------------------

struct cq_spsc : rl::test_suite<cq_spsc, 2> {
    cells c;
    kairos::circular_queue<item> q{2};
    unsigned pushed = 0;
    order o;
    void thread(unsigned id) {
        if (id == 0) {
            for (unsigned k = 0; k < 3; ++k) {
                if (!q.push(item(k))) break;
                ++pushed;
            }
        } else {
            q.for_each([&](item&& e) { o.see(e.get()); });
            (void)q.for_each_requeue([](item&) { return true; });
        }
    }
    void after() {
        q.for_each([&](item&& e) { o.see(e.get()); });
        RL_ASSERT(o.got == pushed);
    }
};

struct cq_mp : rl::test_suite<cq_mp, 3> {
    cells c;
    kairos::circular_queue_mp<item> q{3};
    kairos_model::model_atomic<unsigned> pushed{0};
    order o;
    void thread(unsigned id) {
        if (id < 2) {
            if (q.push(item(id * 16))) (void)pushed.fetch_add(1, rl::mo_relaxed, $);
            item in[1] = {item(id * 16 + 1)};
            (void)pushed.fetch_add(static_cast<unsigned>(q.push_n(in, 1)), rl::mo_relaxed, $);
        } else {
            q.for_each([&](item&& e) { o.see(e.get()); });
        }
    }
    void after() {
        q.for_each([&](item&& e) { o.see(e.get()); });
        RL_ASSERT(o.got == pushed.load(rl::mo_relaxed, $));
    }
};

using masked = kairos::rmw_masked<model_section>;

// run<S>(bound, iterations): context-bounded search when bound > 0, else
// random schedules.
template <class S>
bool run(int bound, unsigned long iterations) {
    rl::test_params p;
    p.output_history = false;
    if (bound > 0) {
        p.search_type = rl::fair_context_bound_scheduler_type;
        p.context_bound = bound;
    } else {
        p.search_type = rl::random_scheduler_type;
        p.iteration_count = iterations;
    }
    return rl::simulate<S>(p);
}

struct scenario {
    const char* name;
    bool (*fn)(int, unsigned long);
    int bound;  // > 0: exhaustive up to this many preemptions
    unsigned long iterations;  // random search when bound == 0
};

constexpr std::uint64_t near32 = 0xFFFFFFFEu;
constexpr std::uint64_t near64 = 0xFFFFFFFFFFFFFFFDull;

const scenario scenarios[] = {
    {"spsc_n1", run<spsc_try<kairos::spsc_ring<item, 1, std::uint8_t>, 254>>, 3, 0},
    {"spsc_n2", run<spsc_try<kairos::spsc_ring<item, 2, std::uint8_t>, 255>>, 3, 0},
    {"spsc_n4", run<spsc_try<kairos::spsc_ring<item, 4, std::uint8_t>, 253>>, 3, 0},
    {"spsc_slot_n2", run<spsc_try<kairos::spsc_slot_ring<item, 2, std::uint8_t>, 255>>, 3, 0},
    {"spsc_slot_n4", run<spsc_try<kairos::spsc_slot_ring<item, 4, std::uint8_t>, 253>>, 3, 0},
    {"spsc_calls", run<spsc_calls>, 2, 0},
    {"mpsc_2p_n2", run<mpsc_try<2, kairos::mpsc_ring<item, 2, std::uint32_t, kairos::rmw_cas>, near32>>, 0, 200000},
    {"mpsc_2p_n2_zero", run<mpsc_try<2, kairos::mpsc_ring<item, 2, std::uint32_t, kairos::rmw_cas>, 0>>, 2, 0},
    {"mpsc_3p_n4_u64", run<mpsc_try<3, kairos::mpsc_ring<item, 4, std::uint64_t, kairos::rmw_cas>, near64>>, 0, 200000},
    {"mpsc_batch_n4", run<mpsc_batch<kairos::mpsc_ring<item, 4, std::uint32_t, kairos::rmw_cas>, near32>>, 0, 200000},
    {"mpsc_masked_2p_n2", run<mpsc_try<2, kairos::mpsc_ring<item, 2, std::uint32_t, masked>, near32>>, 0, 200000},
    {"mpsc_masked_batch_n4", run<mpsc_batch<kairos::mpsc_ring<item, 4, std::uint64_t, masked>, near64>>, 0, 100000},
    {"circular_queue", run<cq_spsc>, 3, 0},
    {"circular_queue_mp", run<cq_mp>, 0, 200000},
};

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fputs("usage: rings_model <scenario> [iterations]\n", stderr);
        return 2;
    }
    for (const scenario& s : scenarios) {
        if (std::strcmp(s.name, argv[1]) != 0) continue;
        const unsigned long it = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : s.iterations;
        const bool ok = s.fn(argc > 2 ? 0 : s.bound, it);
        std::printf("model: %s %s\n", ok ? "PASSED" : "FAILED", s.name);
        return ok ? 0 : 1;
    }
    std::fprintf(stderr, "rings_model: no scenario '%s'\n", argv[1]);
    return 2;
}

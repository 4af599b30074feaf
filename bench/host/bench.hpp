// SPDX-License-Identifier: MIT
// bench.hpp: the registry every kairos-bench benchmark plugs into.
//
// A benchmark is a set of cases that share a bench name ("ring.spsc.rtt")
// and differ in impl ("kairos", "boost.spsc_queue", ...). The runner executes
// the cases of one bench in interleaved rounds (A B C, A B C, ...), so drift
// on the noisy VM hits every impl alike, then reports per impl the median,
// min and max over rounds and the per-round ratio of kairos to each peer.
//
//   KB_CASE("ring.spsc.push_pop", "kairos", "ns/pair", lower,
//           [](const kb::round& r) { ... return ns_per_pair; });
//   KB_SKIP("ring.spsc.throughput", "ck_ring", "libck-dev");
//   KB_QUOTE("sched.nop", "riot.native64", 1110, "ns/iter", "RIOT native64, quoted");
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace kb {

enum better { lower, higher };

// round is what a case function sees for one round.
struct round {
    int index;        // 0-based round number; round -1 is the discarded warm-up
    bool quick;       // --quick: scale work down to milliseconds
    long iters = 0;   // --iters N: exact work size (callgrind differencing), 0 = unset
    // scale() returns the work size for this round: --iters if given, else
    // quick_n under --quick, else full.
    long scale(long full, long quick_n) const {
        return iters > 0 ? iters : quick ? quick_n : full;
    }
};

// A case returns its measurement for one round. It may return a negative
// value to say "this round failed" (e.g. checksum mismatch): the runner
// reports the failure and exits non-zero.
using case_fn = std::function<double(const round&)>;

struct case_info {
    std::string bench, impl, unit;
    better dir;
    case_fn fn;
    std::vector<std::pair<std::string, std::string>> extra;  // extra JSON fields
    // max_rounds > 0 caps the timed rounds of this case's bench and skips
    // the warm-up round: for long, self-contained cases (deferred.seed_stress
    // takes seconds per call by construction).
    int max_rounds = 0;
};

// add_case/add_skip/add_quote register with the global registry; use the
// macros below from namespace scope.
int add_case(case_info c);
int add_skip(const char* bench, const char* impl, const char* package);
int add_quote(const char* bench, const char* impl, double value, const char* unit,
              const char* source);
// add_info adds a "key: value" line to the build-info header (and JSON).
int add_info(const char* key, std::string value);

// note() attaches a finding to the case being run, e.g. "reordered items of
// one producer" for a peer that does not promise per-producer FIFO, or
// "time-capped". Shown once in the notes column and in the JSON "notes"
// field; not a failure (return a negative value for that). Thread-safe.
void note(const std::string& text);

// metric(key, value) records a secondary per-round measurement of the case
// being run (e.g. CPU ms, failed pushes); the runner reports its median over
// the timed rounds as an extra JSON field and in the notes column.
void metric(const std::string& key, double value);

// pin_this_thread() binds the calling thread to one CPU (pthread affinity).
// Returns false (and the thread stays unpinned) when the CPU does not exist
// or affinity is not permitted; the build-info header says which happened.
bool pin_this_thread(int cpu);

// now_ns() reads the monotonic clock in nanoseconds (steady_clock).
long long now_ns();

// do_not_optimize keeps a value alive without costing a store.
template <class T>
inline void do_not_optimize(T const& v) {
    asm volatile("" : : "g"(v) : "memory");
}

}  // namespace kb

#define KB_CAT2(a, b) a##b
#define KB_CAT(a, b) KB_CAT2(a, b)
#define KB_CASE(bench, impl, unit, dir, ...)                                                  \
    static const int KB_CAT(kb_case_, __LINE__) =                                             \
        ::kb::add_case(::kb::case_info{bench, impl, unit, ::kb::dir, __VA_ARGS__, {}})
#define KB_SKIP(bench, impl, package) \
    static const int KB_CAT(kb_skip_, __LINE__) = ::kb::add_skip(bench, impl, package)
#define KB_QUOTE(bench, impl, value, unit, source) \
    static const int KB_CAT(kb_quote_, __LINE__) = ::kb::add_quote(bench, impl, value, unit, source)

// SPDX-License-Identifier: MIT
// main.cpp: the kairos-bench runner (registry, protocol, tables, JSON).
//
// Protocol (docs/benchmarks.md): the cases of one bench run in interleaved
// rounds, one discarded warm-up round first, then --rounds timed rounds; the
// order inside a round rotates by one each round so no impl always runs first
// (right after another impl has warmed or thrashed the caches). Per impl we
// report the median, min and max over rounds; per peer the median over rounds
// of the same-round ratio to kairos, oriented so that > 1 means kairos is
// better (throughput: kairos/peer; time: peer/kairos).
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <pthread.h>
#include <sched.h>

#include "bench.hpp"

#if __has_include(<valgrind/callgrind.h>)
#    include <valgrind/callgrind.h>
#    define KB_HAVE_CALLGRIND 1
#else
#    define KB_HAVE_CALLGRIND 0
#endif

#ifndef KB_BUILD_TYPE
#    define KB_BUILD_TYPE "unknown"
#endif
#ifndef KB_CXX_FLAGS
#    define KB_CXX_FLAGS ""
#endif

namespace kb {
namespace {

struct skip_info {
    std::string bench, impl, package;
};
struct quote_info {
    std::string bench, impl, unit, source;
    double value;
};

// registry holds everything the static initialisers of all bench files add.
// Function-local statics, so registration order across files does not matter.
std::vector<case_info>& cases() {
    static std::vector<case_info> v;
    return v;
}
std::vector<skip_info>& skips() {
    static std::vector<skip_info> v;
    return v;
}
std::vector<quote_info>& quotes() {
    static std::vector<quote_info> v;
    return v;
}
std::vector<std::pair<std::string, std::string>>& infos() {
    static std::vector<std::pair<std::string, std::string>> v;
    return v;
}

}  // namespace

int add_case(case_info c) {
    cases().push_back(std::move(c));
    return 0;
}
int add_skip(const char* bench, const char* impl, const char* package) {
    skips().push_back({bench, impl, package});
    return 0;
}
int add_quote(const char* bench, const char* impl, double value, const char* unit,
              const char* source) {
    quotes().push_back({bench, impl, unit, source, value});
    return 0;
}
int add_info(const char* key, std::string value) {
    infos().emplace_back(key, std::move(value));
    return 0;
}

namespace {
std::mutex notes_mutex;
std::set<std::string>* current_notes = nullptr;  // the running case's notes
}  // namespace

void note(const std::string& text) {
    std::lock_guard<std::mutex> l(notes_mutex);
    if (current_notes) current_notes->insert(text);
}

namespace {
std::map<std::string, double>* current_metrics = nullptr;  // guarded by notes_mutex
}  // namespace

void metric(const std::string& key, double value) {
    std::lock_guard<std::mutex> l(notes_mutex);
    if (current_metrics) (*current_metrics)[key] = value;
}

bool pin_this_thread(int cpu) {
    if (cpu < 0 || cpu >= CPU_SETSIZE) return false;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(static_cast<unsigned>(cpu), &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

long long now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

namespace {

// ---------------------------------------------------------------- options

struct options {
    bool list = false, quick = false, json = false, callgrind = false;
    int rounds = 0;  // 0: default (7, or 3 under --quick)
    long iters = 0;
    std::vector<std::string> filters;
    std::string json_file;  // --json-file: JSON lines also written here
};

void usage(FILE* f) {
    std::fputs(
        "usage: kairos-bench [--list] [--filter SUBSTR]... [--quick] [--json]\n"
        "                    [--json-file PATH] [--rounds N] [--iters N] [--callgrind]\n"
        "  --list          list benches and impls (and skipped peers), run nothing\n"
        "  --filter SUBSTR run cases whose bench or impl contains SUBSTR (repeatable,\n"
        "                  OR); kairos of a selected bench always runs, for the ratio\n"
        "  --quick         tiny work sizes and 3 rounds: the whole run takes seconds\n"
        "  --json          one JSON object per line on stdout (progress stays on stderr)\n"
        "  --json-file PATH  the same JSON lines written to PATH, the output on stdout\n"
        "                  unchanged (tables and JSON from one run; bench/plot-bench)\n"
        "  --rounds N      timed rounds per bench (default 7; >= 5 for a real table)\n"
        "  --iters N       exact work size per case (overrides full/quick sizes)\n"
        "  --callgrind     run each selected case once, counting instructions only\n"
        "                  inside the case (use under valgrind --tool=callgrind\n"
        "                  --instr-atstart=no; see bench/callgrind-ring)\n",
        f);
}

bool parse(int argc, char** argv, options& o) {
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto value = [&](const char* name) -> const char* {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "kairos-bench: %s needs a value\n", name);
                return nullptr;
            }
            return argv[++i];
        };
        if (a == "--list") {
            o.list = true;
        } else if (a == "--quick") {
            o.quick = true;
        } else if (a == "--json") {
            o.json = true;
        } else if (a == "--callgrind") {
            o.callgrind = true;
        } else if (a == "--json-file") {
            const char* v = value("--json-file");
            if (!v) return false;
            o.json_file = v;
        } else if (a == "--filter") {
            const char* v = value("--filter");
            if (!v) return false;
            o.filters.emplace_back(v);
        } else if (a == "--rounds" || a == "--iters") {
            const char* v = value(a.c_str());
            if (!v) return false;
            char* end = nullptr;
            long n = std::strtol(v, &end, 10);
            if (*end != '\0' || n < 1) {
                std::fprintf(stderr, "kairos-bench: %s wants a positive integer\n", a.c_str());
                return false;
            }
            if (a == "--rounds")
                o.rounds = static_cast<int>(std::min(n, 1000L));
            else
                o.iters = n;
        } else if (a == "--help" || a == "-h") {
            usage(stdout);
            std::exit(0);
        } else {
            std::fprintf(stderr, "kairos-bench: unknown argument '%s'\n", a.c_str());
            return false;
        }
    }
    return true;
}

bool matches(const options& o, const std::string& bench, const std::string& impl) {
    if (o.filters.empty()) return true;
    for (const auto& f : o.filters)
        if (bench.find(f) != std::string::npos || impl.find(f) != std::string::npos) return true;
    return false;
}

// ---------------------------------------------------------------- output helpers

std::string json_escape(const std::string& s) {
    std::string r;
    for (char c : s) {
        if (c == '"' || c == '\\') {
            r += '\\';
            r += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            r += buf;
        } else {
            r += c;
        }
    }
    return r;
}

std::string json_str(const std::string& s) { return "\"" + json_escape(s) + "\""; }

std::string json_num(double v) {
    if (!std::isfinite(v)) return "null";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

// json_value() emits an extra field as a number when the whole string is one.
std::string json_value(const std::string& s) {
    if (!s.empty()) {
        char* end = nullptr;
        double d = std::strtod(s.c_str(), &end);
        if (*end == '\0' && std::isfinite(d)) return s;
    }
    return json_str(s);
}

std::string fmt(double v) {
    char buf[32];
    double a = std::fabs(v);
    if (a >= 1000)
        std::snprintf(buf, sizeof buf, "%.0f", v);
    else if (a >= 100)
        std::snprintf(buf, sizeof buf, "%.1f", v);
    else if (a >= 10)
        std::snprintf(buf, sizeof buf, "%.2f", v);
    else
        std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

double median(std::vector<double> v) {
    if (v.empty()) return NAN;
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// ---------------------------------------------------------------- machine facts

std::string first_line_with(const char* path, const char* key) {
    std::ifstream f(path);
    std::string line;
    while (std::getline(f, line))
        if (line.rfind(key, 0) == 0) {
            auto colon = line.find(':');
            std::string v = colon == std::string::npos ? line : line.substr(colon + 1);
            v.erase(0, v.find_first_not_of(" \t"));
            return v;
        }
    return "?";
}

std::string read_file_line(const char* path) {
    std::ifstream f(path);
    std::string line;
    std::getline(f, line);
    return line.empty() ? "?" : line;
}

// steal_ms() is the total steal time of all CPUs so far (/proc/stat, field 8):
// time the hypervisor ran something else while our vCPUs wanted to run.
double steal_ms() {
    std::ifstream f("/proc/stat");
    std::string cpu;
    unsigned long long v[8] = {};
    f >> cpu;
    for (auto& x : v) f >> x;
    if (cpu != "cpu") return NAN;
    long hz = sysconf(_SC_CLK_TCK);
    return hz > 0 ? static_cast<double>(v[7]) * 1000.0 / static_cast<double>(hz) : NAN;
}

std::string compiler() {
#if defined(__clang__)
    return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
    return std::string("gcc ") + __VERSION__;
#else
    return "unknown";
#endif
}

// calibrate() measures the cache-line ping-pong round trip between CPU 0 and
// CPU 1: the floor under any cross-core queue RTT on this machine. Each
// batch is `per` round trips of one atomic word; we report min and median of
// the batch means.
struct calibration {
    double min_ns = NAN, median_ns = NAN;
    int batches = 0, per = 0;
    bool pinned = false;
};

calibration calibrate(bool quick) {
    calibration c;
    c.batches = quick ? 5 : 21;
    c.per = quick ? 500 : 2000;
    alignas(128) std::atomic<unsigned> word{0};
    std::atomic<int> ready{0};
    std::atomic<bool> pinned_ok{true};
    std::vector<double> means;
    const unsigned total = static_cast<unsigned>(c.batches * c.per);
    std::thread echo([&] {
        if (!pin_this_thread(1)) pinned_ok.store(false, std::memory_order_relaxed);
        ready.fetch_add(1, std::memory_order_acq_rel);
        for (unsigned i = 0; i < total; ++i) {
            // acquire: pairs with the pinger's release store of the odd value.
            while (word.load(std::memory_order_acquire) != 2 * i + 1) {
            }
            // release: hands the line back with our reply.
            word.store(2 * i + 2, std::memory_order_release);
        }
    });
    std::thread ping([&] {
        if (!pin_this_thread(0)) pinned_ok.store(false, std::memory_order_relaxed);
        ready.fetch_add(1, std::memory_order_acq_rel);
        while (ready.load(std::memory_order_acquire) != 2) {
        }
        unsigned i = 0;
        for (int b = 0; b < c.batches; ++b) {
            long long t0 = now_ns();
            for (int k = 0; k < c.per; ++k, ++i) {
                // release: publishes the ping; the echo acquires it.
                word.store(2 * i + 1, std::memory_order_release);
                // acquire: pairs with the echo's release store.
                while (word.load(std::memory_order_acquire) != 2 * i + 2) {
                }
            }
            means.push_back(static_cast<double>(now_ns() - t0) / c.per);
        }
    });
    ping.join();
    echo.join();
    c.pinned = pinned_ok.load(std::memory_order_relaxed);
    c.min_ns = *std::min_element(means.begin(), means.end());
    c.median_ns = median(means);
    return c;
}

// ---------------------------------------------------------------- watchdog

// watchdog aborts the run when one case call hangs (a peer that deadlocks,
// a lost item that a consumer waits for forever), naming the case.
class watchdog {
public:
    explicit watchdog(int seconds) : limit_(seconds), thread_([this] { loop(); }) {}
    ~watchdog() {
        {
            std::lock_guard<std::mutex> l(m_);
            stop_ = true;
        }
        cv_.notify_all();
        thread_.join();
    }
    void arm(std::string what) {
        std::lock_guard<std::mutex> l(m_);
        what_ = std::move(what);
        deadline_ = std::chrono::steady_clock::now() + std::chrono::seconds(limit_);
        armed_ = true;
        cv_.notify_all();
    }
    void disarm() {
        std::lock_guard<std::mutex> l(m_);
        armed_ = false;
    }

private:
    void loop() {
        std::unique_lock<std::mutex> l(m_);
        while (!stop_) {
            if (armed_ && std::chrono::steady_clock::now() > deadline_) {
                std::fprintf(stderr, "kairos-bench: %s took more than %d s: hung, aborting\n",
                             what_.c_str(), limit_);
                std::fflush(stderr);
                std::_Exit(3);
            }
            cv_.wait_for(l, std::chrono::milliseconds(200));
        }
    }
    int limit_;
    std::mutex m_;
    std::condition_variable cv_;
    bool stop_ = false, armed_ = false;
    std::string what_;
    std::chrono::steady_clock::time_point deadline_;
    std::thread thread_;
};

// ---------------------------------------------------------------- running

struct result {
    const case_info* c;
    std::vector<double> values;  // one per timed round
    int failed = 0;
    std::set<std::string> notes;  // kb::note() during any round
    std::map<std::string, std::vector<double>> metrics;  // kb::metric(), timed rounds
};

// metrics_str() is "key=median ..." of a result's kb::metric() values.
std::string metrics_str(const result& r) {
    std::string s;
    for (const auto& [key, v] : r.metrics) s += key + "=" + fmt(median(v)) + " ";
    return s;
}

const char* better_str(better b) { return b == higher ? "higher" : "lower"; }

// advantage() orients a same-round ratio so that > 1 means kairos is better.
double advantage(better dir, double kairos, double peer) {
    return dir == higher ? kairos / peer : peer / kairos;
}

struct bench_group {
    std::string name;
    std::vector<const case_info*> cases;  // kairos first, then registration order
    std::vector<const skip_info*> skipped;
    std::vector<const quote_info*> quoted;
};

std::vector<bench_group> select(const options& o) {
    std::map<std::string, bench_group> m;
    for (const auto& c : cases())
        if (matches(o, c.bench, c.impl)) m[c.bench].name = c.bench;
    for (const auto& s : skips())
        if (matches(o, s.bench, s.impl)) m[s.bench].name = s.bench;
    for (const auto& q : quotes())
        if (matches(o, q.bench, q.impl)) m[q.bench].name = q.bench;
    for (auto& [name, g] : m) {
        for (const auto& c : cases())
            if (c.bench == name && c.impl == "kairos") g.cases.push_back(&c);
        for (const auto& c : cases())
            if (c.bench == name && c.impl != "kairos" && matches(o, c.bench, c.impl))
                g.cases.push_back(&c);
        for (const auto& s : skips())
            if (s.bench == name && matches(o, s.bench, s.impl)) g.skipped.push_back(&s);
        for (const auto& q : quotes())
            if (q.bench == name && matches(o, q.bench, q.impl)) g.quoted.push_back(&q);
    }
    std::vector<bench_group> v;
    for (auto& [name, g] : m) v.push_back(std::move(g));
    return v;
}

void print_table(const bench_group& g, const std::vector<result>& rs, int rounds, double steal) {
    const case_info* first = g.cases.empty() ? nullptr : g.cases.front();
    std::printf("\n== %s", g.name.c_str());
    bool warm_up = true;
    for (const auto* c : g.cases) warm_up &= c->max_rounds == 0;
    if (first)
        std::printf("  [%s, %s is better]  %d rounds%s, interleaved", first->unit.c_str(),
                    better_str(first->dir), rounds, warm_up ? " + 1 warm-up" : " (no warm-up)");
    if (std::isfinite(steal)) std::printf(", steal %.0f ms", steal);
    std::printf("\n");
    std::printf("  %-28s %12s %12s %12s   %-24s %s\n", "impl", "median", "min", "max",
                "kairos advantage", "notes");
    const result* k = nullptr;
    for (const auto& r : rs)
        if (r.c->impl == "kairos") k = &r;
    for (const auto& r : rs) {
        std::string adv = "-";
        if (k && &r != k && !r.values.empty() && r.values.size() == k->values.size()) {
            std::vector<double> ratios;
            for (size_t i = 0; i < r.values.size(); ++i)
                ratios.push_back(advantage(r.c->dir, k->values[i], r.values[i]));
            auto [lo, hi] = std::minmax_element(ratios.begin(), ratios.end());
            adv = fmt(median(ratios)) + "x (" + fmt(*lo) + ".." + fmt(*hi) + ")";
        }
        std::string notes;
        for (const auto& [key, val] : r.c->extra) notes += key + "=" + val + " ";
        notes += metrics_str(r);
        for (const auto& n : r.notes) notes += "[" + n + "] ";
        if (r.failed) notes += "FAILED VERIFICATION in " + std::to_string(r.failed) + " round(s)";
        if (r.values.empty()) {
            std::printf("  %-28s %12s %12s %12s   %-24s %s\n", r.c->impl.c_str(), "-", "-", "-",
                        "-", notes.c_str());
            continue;
        }
        auto [lo, hi] = std::minmax_element(r.values.begin(), r.values.end());
        std::printf("  %-28s %12s %12s %12s   %-24s %s\n", r.c->impl.c_str(),
                    fmt(median(r.values)).c_str(), fmt(*lo).c_str(), fmt(*hi).c_str(),
                    adv.c_str(), notes.c_str());
    }
    for (const auto* q : g.quoted)
        std::printf("  %-28s %12s %-12s quoted, not measured (%s)\n", q->impl.c_str(),
                    fmt(q->value).c_str(), q->unit.c_str(), q->source.c_str());
    std::fflush(stdout);  // missing peers: one line each in the header
}

// print_json() writes one bench's JSON lines (docs/benchmarks.md) to `out`.
void print_json(FILE* out, const bench_group& g, const std::vector<result>& rs, double steal) {
    const result* k = nullptr;
    for (const auto& r : rs)
        if (r.c->impl == "kairos") k = &r;
    for (const auto& r : rs) {
        std::string s = "{\"kind\":\"result\",\"bench\":" + json_str(g.name) +
                        ",\"impl\":" + json_str(r.c->impl);
        if (!r.values.empty()) {
            auto [lo, hi] = std::minmax_element(r.values.begin(), r.values.end());
            s += ",\"value\":" + json_num(median(r.values)) + ",\"unit\":" + json_str(r.c->unit) +
                 ",\"better\":" + json_str(better_str(r.c->dir)) + ",\"min\":" + json_num(*lo) +
                 ",\"max\":" + json_num(*hi);
        } else {
            s += ",\"value\":null,\"unit\":" + json_str(r.c->unit) +
                 ",\"better\":" + json_str(better_str(r.c->dir));
        }
        s += ",\"rounds\":" + std::to_string(r.values.size());
        if (k && &r != k && !r.values.empty() && r.values.size() == k->values.size()) {
            std::vector<double> ratios;
            for (size_t i = 0; i < r.values.size(); ++i)
                ratios.push_back(advantage(r.c->dir, k->values[i], r.values[i]));
            auto [lo, hi] = std::minmax_element(ratios.begin(), ratios.end());
            s += ",\"kairos_advantage\":" + json_num(median(ratios)) +
                 ",\"kairos_advantage_min\":" + json_num(*lo) +
                 ",\"kairos_advantage_max\":" + json_num(*hi);
        }
        if (std::isfinite(steal)) s += ",\"steal_ms\":" + json_num(steal);
        s += ",\"failed_rounds\":" + std::to_string(r.failed);
        for (const auto& [key, val] : r.c->extra) s += "," + json_str(key) + ":" + json_value(val);
        for (const auto& [key, v] : r.metrics) s += "," + json_str(key) + ":" + json_num(median(v));
        if (!r.notes.empty()) {
            s += ",\"notes\":[";
            for (const auto& n : r.notes) s += json_str(n) + (&n == &*r.notes.rbegin() ? "" : ",");
            s += "]";
        }
        std::fprintf(out, "%s}\n", s.c_str());
    }
    for (const auto* q : g.quoted)
        std::fprintf(out,
                     "{\"kind\":\"quote\",\"bench\":%s,\"impl\":%s,\"value\":%s,\"unit\":%s,"
                     "\"measured\":false,\"source\":%s}\n",
                     json_str(q->bench).c_str(), json_str(q->impl).c_str(),
                     json_num(q->value).c_str(), json_str(q->unit).c_str(),
                     json_str(q->source).c_str());
    for (const auto* s : g.skipped)
        std::fprintf(out, "{\"kind\":\"skip\",\"bench\":%s,\"impl\":%s,\"package\":%s}\n",
                     json_str(s->bench).c_str(), json_str(s->impl).c_str(),
                     json_str(s->package).c_str());
    std::fflush(out);
}

// run_group() runs one bench: warm-up round, then `rounds` interleaved
// rounds with rotating order; its JSON lines also go to `json_file` when
// not null. Returns the number of failed case calls.
int run_group(const bench_group& g, const options& o, int rounds, watchdog& dog, FILE* json_file) {
    std::vector<result> rs;
    for (const auto* c : g.cases) rs.push_back({c, {}, 0, {}, {}});
    const size_t n = rs.size();
    bool warm_up = true;  // a case with max_rounds caps the rounds and skips the warm-up
    for (const auto* c : g.cases)
        if (c->max_rounds > 0) {
            rounds = std::min(rounds, c->max_rounds);
            warm_up = false;
        }
    double steal0 = steal_ms();
    for (int round_i = warm_up ? -1 : 0; round_i < rounds; ++round_i) {
        std::string progress;
        for (size_t j = 0; j < n; ++j) {
            size_t idx = (j + static_cast<size_t>(round_i + 1)) % n;
            result& r = rs[idx];
            kb::round rd{round_i, o.quick, o.iters};
            dog.arm(g.name + " / " + r.c->impl + " round " + std::to_string(round_i));
            {
                std::lock_guard<std::mutex> l(notes_mutex);
                current_notes = &r.notes;
            }
            std::map<std::string, double> round_metrics;
            {
                std::lock_guard<std::mutex> l(notes_mutex);
                current_metrics = &round_metrics;
            }
            double v = r.c->fn(rd);
            {
                std::lock_guard<std::mutex> l(notes_mutex);
                current_notes = nullptr;
                current_metrics = nullptr;
            }
            if (round_i >= 0)
                for (const auto& [key, mv] : round_metrics) r.metrics[key].push_back(mv);
            dog.disarm();
            bool bad = !(v >= 0) || !std::isfinite(v);
            if (bad) {
                ++r.failed;
                std::fprintf(stderr, "kairos-bench: FAILED %s / %s round %d (returned %g)\n",
                             g.name.c_str(), r.c->impl.c_str(), round_i, v);
            } else if (round_i >= 0) {
                r.values.push_back(v);
            }
            progress += " " + r.c->impl + "=" + (bad ? std::string("FAIL") : fmt(v));
        }
        if (round_i < 0)
            std::fprintf(stderr, "[%s] warm-up:%s\n", g.name.c_str(), progress.c_str());
        else
            std::fprintf(stderr, "[%s] round %d/%d:%s\n", g.name.c_str(), round_i + 1, rounds,
                         progress.c_str());
    }
    // A failed round leaves the per-round ratios unaligned: drop them.
    bool any_failed = false;
    for (auto& r : rs) any_failed |= r.failed > 0;
    if (any_failed)
        for (auto& r : rs)
            if (r.failed) r.values.clear();
    double steal = steal_ms() - steal0;
    if (o.json)
        print_json(stdout, g, rs, steal);
    else
        print_table(g, rs, rounds, steal);
    if (json_file) print_json(json_file, g, rs, steal);
    int failed = 0;
    for (auto& r : rs) failed += r.failed;
    return failed;
}

// run_callgrind() runs each selected case exactly once with instrumentation
// on only around the call and dumps one callgrind profile per case, named
// "<bench>/<impl>"; the difference between two --iters values gives the
// exact instructions per iteration (bench/callgrind-ring does this).
int run_callgrind(const std::vector<bench_group>& groups, const options& o) {
#if KB_HAVE_CALLGRIND
    int failed = 0;
    for (const auto& g : groups)
        for (const auto* c : g.cases) {
            if (!matches(o, c->bench, c->impl)) continue;
            kb::round rd{0, o.quick, o.iters};
            std::string tag = c->bench + "/" + c->impl;
            CALLGRIND_ZERO_STATS;
            CALLGRIND_START_INSTRUMENTATION;
            double v = c->fn(rd);
            CALLGRIND_STOP_INSTRUMENTATION;
            CALLGRIND_DUMP_STATS_AT(tag.c_str());
            bool bad = !(v >= 0);
            failed += bad;
            std::printf("%s %s %s\n", tag.c_str(), bad ? "FAILED" : "ok", fmt(v).c_str());
        }
    return failed ? 1 : 0;
#else
    (void)groups;
    (void)o;
    std::fprintf(stderr, "kairos-bench: built without <valgrind/callgrind.h> (apt-get install "
                         "valgrind)\n");
    return 2;
#endif
}

}  // namespace
}  // namespace kb

int main(int argc, char** argv) {
    using namespace kb;
    options o;
    if (!parse(argc, argv, o)) {
        usage(stderr);
        return 2;
    }
    auto groups = select(o);
    if (o.list) {
        for (const auto& g : groups) {
            for (const auto* c : g.cases)
                std::printf("%-28s %-28s %s (%s is better)\n", g.name.c_str(), c->impl.c_str(),
                            c->unit.c_str(), better_str(c->dir));
            for (const auto* q : g.quoted)
                std::printf("%-28s %-28s quoted, not measured\n", g.name.c_str(), q->impl.c_str());
            for (const auto* s : g.skipped)
                std::printf("%-28s %-28s skipped (apt-get install %s)\n", g.name.c_str(),
                            s->impl.c_str(), s->package.c_str());
        }
        return 0;
    }
    if (groups.empty()) {
        std::fprintf(stderr, "kairos-bench: no bench matches the filter (try --list)\n");
        return 2;
    }
    if (o.callgrind) return run_callgrind(groups, o);

    FILE* json_file = nullptr;
    if (!o.json_file.empty()) {
        json_file = std::fopen(o.json_file.c_str(), "w");
        if (!json_file) {
            std::fprintf(stderr, "kairos-bench: cannot write --json-file %s: %s\n",
                         o.json_file.c_str(), std::strerror(errno));
            return 2;
        }
    }
    const int rounds = o.rounds > 0 ? o.rounds : (o.quick ? 3 : 7);
    long long t_start = now_ns();
    double steal_start = steal_ms();
    calibration cal = calibrate(o.quick);

    utsname u{};
    uname(&u);
    std::vector<std::pair<std::string, std::string>> info = {
        {"compiler", compiler()},
        {"build", std::string(KB_BUILD_TYPE) + ", flags: " + KB_CXX_FLAGS},
        {"cpu", first_line_with("/proc/cpuinfo", "model name")},
        {"cpus", std::to_string(std::thread::hardware_concurrency()) + " online"},
        {"kernel", std::string(u.sysname) + " " + u.release + " " + u.machine},
        {"thp", read_file_line("/sys/kernel/mm/transparent_hugepage/enabled")},
        {"loadavg", read_file_line("/proc/loadavg") +
                        "  (at start; well above 0: other processes compete for the CPUs)"},
        {"calibration",
         "cache-line ping-pong RTT CPU0<->CPU1: median " + fmt(cal.median_ns) + " ns, min " +
             fmt(cal.min_ns) + " ns (" + std::to_string(cal.batches) + " batches x " +
             std::to_string(cal.per) + (cal.pinned ? ", pinned)" : ", NOT pinned)")},
        {"protocol", std::to_string(rounds) +
                         " timed rounds after 1 discarded warm-up; impls interleaved in each "
                         "round, order rotated per round; median [min..max] over rounds"},
        {"ratio", "kairos advantage = median over rounds of the same-round ratio, "
                  "kairos/peer for throughput, peer/kairos for time: > 1 means kairos is "
                  "better"},
    };
    for (const auto& kv : infos()) info.push_back(kv);
    std::string info_json = "{\"kind\":\"info\"";
    for (const auto& [k, v] : info) info_json += "," + json_str(k) + ":" + json_str(v);
    info_json += ",\"calibration_rtt_ns\":" + json_num(cal.median_ns) +
                 ",\"calibration_rtt_min_ns\":" + json_num(cal.min_ns) +
                 ",\"quick\":" + (o.quick ? "true" : "false") + "}";
    if (json_file) std::fprintf(json_file, "%s\n", info_json.c_str());
    if (o.json) {
        std::printf("%s\n", info_json.c_str());
    } else {
        std::printf("kairos-bench%s\n", o.quick ? " --quick (smoke sizes: not a measurement)" : "");
        for (const auto& [k, v] : info) std::printf("  %-12s %s\n", k.c_str(), v.c_str());
        // One line per missing peer, however many benches it would be in.
        std::set<std::pair<std::string, std::string>> missing;
        for (const auto& g : groups)
            for (const auto* sk : g.skipped) missing.emplace(sk->impl, sk->package);
        for (const auto& [impl, package] : missing)
            std::printf("  %-12s %s: not installed, its cases are skipped (apt-get install %s)\n",
                        "skipped", impl.c_str(), package.c_str());
    }
    std::fflush(stdout);

    int failed = 0;
    {
        watchdog dog(o.quick ? 60 : 120);
        for (const auto& g : groups) {
            if (g.cases.empty()) {
                if (o.json)
                    print_json(stdout, g, {}, NAN);
                else
                    print_table(g, {}, rounds, NAN);
                if (json_file) print_json(json_file, g, {}, NAN);
                continue;
            }
            failed += run_group(g, o, rounds, dog, json_file);
        }
    }
    double secs = static_cast<double>(now_ns() - t_start) / 1e9;
    double steal = steal_ms() - steal_start;
    if (!o.json)
        std::printf("\ntotal %.1f s, steal %.0f ms%s\n", secs, steal,
                    failed ? ", VERIFICATION FAILURES (see stderr)" : "");
    bool json_file_bad = json_file && (std::ferror(json_file) || std::fclose(json_file) != 0);
    if (json_file_bad)
        std::fprintf(stderr, "kairos-bench: writing --json-file %s failed\n", o.json_file.c_str());
    std::fprintf(stderr, "kairos-bench: done in %.1f s%s\n", secs,
                 failed ? ", with verification failures" : "");
    return failed ? 1 : json_file_bad ? 2 : 0;
}

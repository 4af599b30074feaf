// SPDX-License-Identifier: MIT
// kernel_fuzz: kernel call sequences on the ucontext port and the virtual
// clock against a reference model of the scheduler. The input describes
// two to four threads (priorities 1..3, equal ones included) and a program
// per thread: yield, sleep_us, lock and unlock of a plain mutex, wakeup,
// thread flags (set, wait_any) and messages (try_send, receive). Each
// thread records every call's result as it returns; the model (run-queue
// levels in FIFO order, the running thread at the head of the best level,
// wake-ups at the tail, priority-ordered mutex waiters with direct handoff,
// deadlines on the virtual clock in arming order) predicts that record and
// the number of threads left blocked when run() returns.
#include "fuzz_common.hpp"

#include <kairos/kernel/msg.hpp>
#include <kairos/kernel/mutex.hpp>
#include <kairos/kernel/thread.hpp>
#include <kairos/kernel/thread_flags.hpp>
#include <kairos/port.hpp>

#include "kairos_host.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <new>
#include <vector>

namespace {

using kfuzz::input;
namespace k = kairos::kernel;

constexpr std::size_t max_threads = 4;
constexpr std::size_t max_ops = 10;

enum op_kind : std::uint8_t { yield, sleep, lock, unlock, flags_set, flags_wait, send, receive, wake, kinds };

struct op {
    op_kind kind;
    std::uint8_t target;  // thread index
    std::uint32_t arg;    // sleep µs, flag bits, message value
};

struct program {
    unsigned prio;
    std::vector<op> ops;
};

// A record: thread t finished call i (i == ops.size(): the unlock before
// exiting) with result r.
struct rec {
    std::size_t t, i;
    long long r;
    bool operator==(const rec& o) const { return t == o.t && i == o.i && r == o.r; }
};

// ---- the real run --------------------------------------------------------

std::vector<program> progs;
std::vector<rec> trace;
k::pid pids[max_threads];
alignas(k::mutex) unsigned char mutex_mem[sizeof(k::mutex)];
k::mutex& mtx() { return *std::launder(reinterpret_cast<k::mutex*>(mutex_mem)); }
alignas(64) unsigned char stacks[max_threads][96 * 1024];

void thread_main(void* arg) {
    const std::size_t t = reinterpret_cast<std::uintptr_t>(arg);
    bool holding = false;
    const program& p = progs[t];
    for (std::size_t i = 0; i < p.ops.size(); ++i) {
        const op& o = p.ops[i];
        long long r = 0;
        switch (o.kind) {
        case yield: k::yield(); break;
        case sleep: k::sleep_us(o.arg); break;
        case lock:
            if (!holding) {
                mtx().lock();
                holding = true;
            } else {
                r = -100;  // skipped: would wait for itself
            }
            break;
        case unlock:
            if (holding) {
                mtx().unlock();
                holding = false;
            } else {
                r = -100;
            }
            break;
        case flags_set: r = k::flags_set(pids[o.target], o.arg); break;
        case flags_wait: r = k::flags_wait_any(o.arg); break;
        case send: {
            k::msg m;
            m.value = o.arg;
            r = k::try_send(m, pids[o.target]);
            break;
        }
        case receive: {
            k::msg m;
            k::receive(m);
            r = static_cast<long long>(m.value) * 16 + m.sender;
            break;
        }
        default: r = k::wakeup(pids[o.target]); break;
        }
        trace.push_back({t, i, r});
    }
    if (holding) {
        mtx().unlock();  // exiting with a mutex held is a panic
        trace.push_back({t, p.ops.size(), 0});
    }
}

// ---- the model -----------------------------------------------------------

class model {
public:
    explicit model(std::uint64_t now) : now_(now) {}

    // run() simulates the programs and returns the threads left blocked.
    int run(std::vector<rec>& out) {
        for (std::size_t t = 0; t < progs.size(); ++t) {
            th_[t].prio = progs[t].prio;
            make_ready(t);
        }
        for (;;) {
            const std::size_t cur = best();
            if (cur == none) {
                if (!expire()) break;
                continue;
            }
            thread& c = th_[cur];
            if (c.has_pending) {  // its last call returns now
                long long r = c.pending;
                if (c.flags_resume) {
                    r = c.flags & c.wait_mask;
                    c.flags &= ~static_cast<std::uint32_t>(r);
                    c.flags_resume = false;
                }
                out.push_back({cur, c.pc - 1, r});
                c.has_pending = false;
                continue;
            }
            if (c.pc >= progs[cur].ops.size()) {
                if (c.holding) {
                    do_unlock(cur);
                    c.holding = false;
                    c.pc++;
                    finish(cur, 0);
                    continue;
                }
                remove_ready(cur);
                c.exited = true;
                continue;
            }
            step(cur, progs[cur].ops[c.pc++]);
        }
        int live = 0;
        for (std::size_t t = 0; t < progs.size(); ++t) live += th_[t].exited ? 0 : 1;
        return live;
    }

private:
    static constexpr std::size_t none = ~std::size_t{0};
    enum class block { none, sleeping, mutex, flags, receive };
    struct thread {
        unsigned prio = 0;
        std::size_t pc = 0;
        bool has_pending = false, flags_resume = false, holding = false, exited = false;
        long long pending = 0;
        block blocked = block::none;
        std::uint64_t deadline = 0, arm_seq = 0;
        std::uint32_t flags = 0, wait_mask = 0;
    };

    void finish(std::size_t t, long long r) {
        th_[t].has_pending = true;
        th_[t].pending = r;
    }
    void make_ready(std::size_t t) {
        th_[t].blocked = block::none;
        levels_[th_[t].prio].push_back(t);
    }
    void remove_ready(std::size_t t) {
        auto& l = levels_[th_[t].prio];
        l.erase(std::find(l.begin(), l.end(), t));
    }
    void block_on(std::size_t t, block b) {
        remove_ready(t);
        th_[t].blocked = b;
    }
    std::size_t best() const {
        for (const auto& l : levels_) {
            if (!l.empty()) return l.front();
        }
        return none;
    }
    // expire() jumps to the earliest deadline and wakes everything due
    // then, in deadline and arming order; false when none is armed.
    bool expire() {
        std::vector<std::size_t> s;
        for (std::size_t t = 0; t < progs.size(); ++t) {
            if (th_[t].blocked == block::sleeping) s.push_back(t);
        }
        if (s.empty()) return false;
        std::sort(s.begin(), s.end(), [&](std::size_t a, std::size_t b) {
            return th_[a].deadline != th_[b].deadline ? th_[a].deadline < th_[b].deadline
                                                      : th_[a].arm_seq < th_[b].arm_seq;
        });
        now_ = th_[s.front()].deadline;
        for (std::size_t t : s) {
            if (th_[t].deadline == now_) make_ready(t);
        }
        return true;
    }
    void do_unlock(std::size_t) {
        if (waiters_.empty()) {
            owner_ = none;
            return;
        }
        const std::size_t w = waiters_.front();
        waiters_.pop_front();
        owner_ = w;
        th_[w].holding = true;
        make_ready(w);  // its lock() returns
    }

    void step(std::size_t cur, const op& o) {
        thread& c = th_[cur];
        switch (o.kind) {
        case yield: {
            auto& l = levels_[c.prio];
            l.erase(std::find(l.begin(), l.end(), cur));
            l.push_back(cur);
            finish(cur, 0);
            break;
        }
        case sleep:
            finish(cur, 0);
            block_on(cur, block::sleeping);
            c.deadline = now_ + o.arg;
            c.arm_seq = seq_++;
            break;
        case lock:
            finish(cur, c.holding ? -100 : 0);
            if (c.holding) break;
            if (owner_ == none) {
                owner_ = cur;
                c.holding = true;
                break;
            }
            block_on(cur, block::mutex);
            {  // priority order, FIFO among equals
                auto it = waiters_.begin();
                while (it != waiters_.end() && th_[*it].prio <= c.prio) ++it;
                waiters_.insert(it, cur);
            }
            break;
        case unlock:
            finish(cur, c.holding ? 0 : -100);
            if (!c.holding) break;
            c.holding = false;
            do_unlock(cur);
            break;
        case flags_set: {
            thread& t = th_[o.target];
            if (t.exited) {
                finish(cur, k::err_bad_pid);
                break;
            }
            t.flags |= o.arg;
            if (t.blocked == block::flags && (t.flags & t.wait_mask) != 0) make_ready(o.target);
            finish(cur, 0);
            break;
        }
        case flags_wait:
            finish(cur, 0);
            c.flags_resume = true;
            c.wait_mask = o.arg;
            if ((c.flags & o.arg) == 0) block_on(cur, block::flags);
            break;
        case send: {
            thread& t = th_[o.target];
            if (t.exited) {
                finish(cur, k::err_bad_pid);
            } else if (t.blocked == block::receive) {
                finish(o.target, static_cast<long long>(o.arg) * 16 + pids[cur]);
                make_ready(o.target);
                finish(cur, 1);
            } else {
                finish(cur, 0);  // no queue: dropped
            }
            break;
        }
        case receive:
            block_on(cur, block::receive);
            break;
        default: {
            thread& t = th_[o.target];
            if (t.exited) {
                finish(cur, k::err_bad_pid);
            } else if (t.blocked == block::sleeping) {
                make_ready(o.target);
                finish(cur, 1);
            } else {
                finish(cur, 0);
            }
            break;
        }
        }
    }

    std::uint64_t now_;
    std::uint64_t seq_ = 0;
    thread th_[max_threads];
    std::deque<std::size_t> levels_[4];
    std::deque<std::size_t> waiters_;
    std::size_t owner_ = none;
};

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    kairos::host::use_virtual_clock(true);  // time moves only while all threads wait
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    input in(data, size);
    progs.clear();
    trace.clear();
    const std::size_t n = 2 + in.below(max_threads - 1);
    for (std::size_t t = 0; t < n; ++t) progs.push_back({1 + static_cast<unsigned>(in.below(3)), {}});
    for (std::size_t t = 0; t < n; ++t) {
        const std::size_t len = in.below(max_ops + 1);
        for (std::size_t i = 0; i < len; ++i) {
            const std::uint8_t b = in.byte();
            op o{static_cast<op_kind>(b % kinds), static_cast<std::uint8_t>(in.below(n)), 0};
            switch (o.kind) {
            case sleep: o.arg = 1 + in.byte(); break;
            case flags_set:
            case flags_wait: o.arg = 1u + static_cast<std::uint32_t>(in.below(7)); break;  // bits 0..2, never 0
            case send: o.arg = in.byte(); break;
            default: break;
            }
            progs[t].ops.push_back(o);
        }
    }
    ::new (mutex_mem) k::mutex();
    for (std::size_t t = 0; t < n; ++t) {
        pids[t] = k::thread_create(stacks[t], sizeof stacks[t], progs[t].prio, thread_main,
                                   reinterpret_cast<void*>(static_cast<std::uintptr_t>(t)), "fuzz");
        FUZZ_CHECK(pids[t] > 0);
    }
    std::vector<rec> want;
    model m(kairos::port::now_us());
    const int live_want = m.run(want);
    k::run_options opts;
    opts.return_when_idle = true;
    const int live = k::run(opts);
    if (!(trace == want) || live != live_want) {
        std::fprintf(stderr, "kernel: %d live (model %d)\n", live, live_want);
        for (std::size_t i = 0; i < trace.size() || i < want.size(); ++i) {
            if (i < trace.size()) std::fprintf(stderr, "  t%zu op%zu r=%lld", trace[i].t, trace[i].i, trace[i].r);
            else std::fprintf(stderr, "  -");
            if (i < want.size()) std::fprintf(stderr, "   model t%zu op%zu r=%lld\n", want[i].t, want[i].i, want[i].r);
            else std::fprintf(stderr, "   model -\n");
        }
    }
    FUZZ_CHECK(trace == want && live == live_want);
    k::reset();
    return 0;
}

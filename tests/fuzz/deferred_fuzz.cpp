// SPDX-License-Identifier: MIT
// deferred_fuzz: API sequences on kairos::deferred against a reference
// model, on a fake clock that starts just below 2^64 (or anywhere) and
// crosses the wrap: one-shot functions (FIFO, the run() snapshot, overflow),
// recurrent functions (due order with ties in registration order, period 0,
// skipped periods, alarms, cancel through live and stale handles, the pool
// filling up), the wake hook, and every query. Functions and tasks make
// nested calls (schedule, register, cancel themselves or others, run(),
// run_recurrent(), queries, clock steps); the model and the scheduler run
// in lockstep, each callback checking that it is the call the model
// expects next.
#include "fuzz_common.hpp"

#include <kairos/deferred.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <numeric>
#include <vector>

namespace {

using kfuzz::input;

template <std::size_t Cap, std::size_t RCap>
class harness {
    using sched = kairos::deferred<Cap, RCap>;
    enum class st { free, inbox, timer, firing, running };

    struct model_entry {
        st state = st::free;
        bool cancel = false;
        std::uint32_t gen = 0;
        std::uint32_t rid = 0;
        std::uint64_t period = 0;
        std::uint64_t due = 0;
        std::uint64_t order = 0;
        bool has_alarm = false;
    };
    struct tracked_handle {
        typename sched::handle h;
        std::size_t index;
        std::uint32_t gen;
    };

public:
    harness(input& in, std::uint64_t start)
        : in_(in), now_(start), d_(kairos::clock_source{&read_clock, this}) {}

    void run() {
        while (in_.more()) step(0);
        check_counts();
    }

private:
    static std::uint64_t read_clock(void* ctx) noexcept { return static_cast<harness*>(ctx)->now_; }

    void step(int depth) {
        const std::uint8_t op = in_.byte();
        switch (op % 16) {
        case 0: schedule(); break;
        case 1: schedule_null(op >> 4); break;
        case 2: run_one_shots(); break;
        case 3: register_recurrent(op >> 4); break;
        case 4: cancel(); break;
        case 5: active(); break;
        case 6: run_recurrent(); break;
        case 7: advance(op >> 4); break;
        case 8: next_due(); break;
        case 9: recurrent_delay(); break;
        case 10: delay(); break;
        case 11: count(); break;
        case 12: grain(); break;
        case 13: toggle_alarm(); break;
        case 14: check_counts(); break;
        default: wake_hook(op >> 4); break;
        }
        (void)depth;
    }

    void nested(int depth) {
        if (depth >= 3) return;
        const std::size_t n = in_.below(4);
        for (std::size_t i = 0; i < n && in_.more(); ++i) step(depth + 1);
    }

    // ---- one-shot ----------------------------------------------------------

    void schedule() {
        const std::uint32_t id = next_id_++;
        const bool ok = d_.schedule([this, id] { on_task(id); });
        FUZZ_CHECK(ok == (queue_.size() < Cap));
        if (ok) {
            queue_.push_back(id);
            if (hooked_) ++wakes_expected_;
        } else {
            ++overflows_;
        }
    }

    void schedule_null(unsigned how) {
        void (*null_fn)() = nullptr;
        bool (*null_rec)() = nullptr;
        switch (how % 4) {
        case 0: FUZZ_CHECK(!d_.schedule(nullptr)); break;
        case 1: FUZZ_CHECK(!d_.schedule(null_fn)); break;
        case 2: FUZZ_CHECK(!d_.schedule(std::function<void()>{})); break;
        default: FUZZ_CHECK(!d_.schedule_recurrent(null_rec, 10)); break;
        }
    }

    void on_task(std::uint32_t id) {
        FUZZ_CHECK(running_ && done_ < snapshot_);
        FUZZ_CHECK(!queue_.empty() && queue_.front() == id);
        ++done_;
        nested(depth_ + 1);
        queue_.pop_front();  // its slot is freed after the call
    }

    void run_one_shots() {
        if (running_) {
            FUZZ_CHECK(d_.run() == 0);
            return;
        }
        running_ = true;
        const std::size_t saved_snapshot = snapshot_, saved_done = done_;
        snapshot_ = queue_.size();
        done_ = 0;
        ++depth_;
        const std::size_t ran = d_.run();
        --depth_;
        FUZZ_CHECK(ran == snapshot_ && done_ == snapshot_);
        snapshot_ = saved_snapshot;
        done_ = saved_done;
        running_ = false;
    }

    // ---- recurrent: registration and cancellation -------------------------

    std::uint64_t period_from(unsigned how) {
        switch (how % 4) {
        case 0: return 0;
        case 1: return 1 + in_.byte();
        case 2: return 1000u * (1u + in_.below(16));
        default: return in_.get<std::uint64_t>() & ((std::uint64_t{1} << 40) - 1);
        }
    }

    void register_recurrent(unsigned how) {
        const std::uint64_t period = period_from(how);
        const bool alarm = (how & 4) != 0;
        const std::uint32_t rid = next_id_++;
        alarm_on_.resize(rid + 1, false);
        typename sched::handle h;
        if (alarm) {
            h = d_.schedule_recurrent([this, rid] { return on_recurrent(rid); }, period,
                                      [this, rid] { return on_alarm(rid); });
        } else {
            h = d_.schedule_recurrent([this, rid] { return on_recurrent(rid); }, period);
        }
        // The first free entry, in index order.
        std::size_t i = 0;
        while (i < RCap && entries_[i].state != st::free) ++i;
        FUZZ_CHECK(bool(h) == (i < RCap));
        if (i == RCap) {
            ++rec_overflows_;
            return;
        }
        model_entry& e = entries_[i];
        e.state = st::inbox;
        e.cancel = false;
        e.rid = rid;
        e.period = period;
        e.due = now_ + period;
        e.has_alarm = alarm;
        inbox_.push_back(i);
        if (hooked_) ++wakes_expected_;  // a registration wakes the consumer
        handles_.push_back({h, i, e.gen});
        FUZZ_CHECK(h.active());
    }

    bool model_live(const tracked_handle& t) const {
        const model_entry& e = entries_[t.index];
        return e.state != st::free && e.gen == t.gen && !e.cancel;
    }

    tracked_handle* pick_handle() {
        if (handles_.empty()) return nullptr;
        return &handles_[in_.below(handles_.size())];
    }

    void cancel() {
        tracked_handle* t = pick_handle();
        if (t == nullptr) {
            typename sched::handle none;
            FUZZ_CHECK(!none.cancel() && !none.active() && !none);
            return;
        }
        const bool live = model_live(*t);
        FUZZ_CHECK(t->h.cancel() == live);
        if (live) {
            entries_[t->index].cancel = true;
            cancel_note_ = true;
            if (hooked_) ++wakes_expected_;  // so does a cancel() that took effect
        }
    }

    void active() {
        if (tracked_handle* t = pick_handle()) FUZZ_CHECK(t->h.active() == model_live(*t));
    }

    void toggle_alarm() {
        if (alarm_on_.empty()) return;
        const std::size_t rid = in_.below(alarm_on_.size());
        alarm_on_[rid] = !alarm_on_[rid];
    }

    // ---- the consumer's bookkeeping, as the scheduler does it -------------

    void release(std::size_t i) {
        model_entry& e = entries_[i];
        alarms_.erase(std::remove(alarms_.begin(), alarms_.end(), i), alarms_.end());
        fire_.erase(std::remove(fire_.begin(), fire_.end(), i), fire_.end());
        e.state = st::free;
        e.cancel = false;
        ++e.gen;
        --rec_count_;
    }

    void collect() {
        if (inbox_.empty() && !cancel_note_) return;
        for (std::size_t i : inbox_) {
            model_entry& e = entries_[i];
            e.order = next_order_++;
            e.state = st::timer;
            ++rec_count_;
            if (e.cancel) {
                release(i);
                continue;
            }
            if (e.has_alarm) alarms_.push_back(i);
        }
        inbox_.clear();
        if (cancel_note_) {
            cancel_note_ = false;
            for (std::size_t i = 0; i < RCap; ++i) {
                const st s = entries_[i].state;
                if ((s == st::timer || s == st::firing) && entries_[i].cancel) release(i);
            }
        }
    }

    static bool before(std::uint64_t a, std::uint64_t b) { return static_cast<std::int64_t>(a - b) < 0; }

    // earliest() is the timer-queue entry due first, RCap if none.
    std::size_t earliest() const {
        std::size_t best = RCap;
        for (std::size_t i = 0; i < RCap; ++i) {
            if (entries_[i].state != st::timer) continue;
            if (best == RCap || before(entries_[i].due, entries_[best].due) ||
                (entries_[i].due == entries_[best].due && entries_[i].order < entries_[best].order)) {
                best = i;
            }
        }
        return best;
    }

    // ---- recurrent: the pass ----------------------------------------------

    bool on_alarm(std::uint32_t rid) {
        FUZZ_CHECK(!alarm_calls_.empty() && alarm_calls_.front() == rid);
        alarm_calls_.pop_front();
        return alarm_on_[rid];
    }

    bool on_recurrent(std::uint32_t rid) {
        FUZZ_CHECK(rec_running_);
        // Entries ahead of this one in the pass were cancelled meanwhile.
        while (!fire_.empty() && entries_[fire_.front()].rid != rid) {
            FUZZ_CHECK(entries_[fire_.front()].cancel);
            release(fire_.front());
        }
        FUZZ_CHECK(!fire_.empty());
        const std::size_t i = fire_.front();
        fire_.pop_front();
        model_entry& e = entries_[i];
        FUZZ_CHECK(e.state == st::firing && !e.cancel);
        e.state = st::running;
        ++ran_;
        const bool keep = (in_.byte() & 7) != 0;
        nested(depth_ + 1);
        if (!keep || e.cancel) {
            release(i);
        } else {
            e.state = st::timer;
            if (!before(pass_now_, e.due)) {
                if (e.period == 0) {
                    e.due = pass_now_;
                } else {
                    const std::uint64_t late = pass_now_ - e.due;
                    e.due += (late / e.period) * e.period + e.period;
                }
            }
        }
        return keep;
    }

    void run_recurrent() {
        if (rec_running_) {
            FUZZ_CHECK(d_.run_recurrent() == 0);
            return;
        }
        collect();
        const std::size_t first = earliest();
        const bool any_due = first != RCap && !before(now_, entries_[first].due);
        if (alarms_.empty() && !any_due) {
            FUZZ_CHECK(d_.run_recurrent() == 0);
            return;
        }
        rec_running_ = true;
        pass_now_ = now_;
        ran_ = 0;
        // Due entries in due order (ties: registration order), then alarms.
        std::vector<std::size_t> due;
        for (std::size_t i = 0; i < RCap; ++i) {
            if (entries_[i].state == st::timer && !before(now_, entries_[i].due)) due.push_back(i);
        }
        std::sort(due.begin(), due.end(), [&](std::size_t a, std::size_t b) {
            const auto ka = static_cast<std::int64_t>(entries_[a].due - now_);
            const auto kb = static_cast<std::int64_t>(entries_[b].due - now_);
            return ka != kb ? ka < kb : entries_[a].order < entries_[b].order;
        });
        for (std::size_t i : due) {
            entries_[i].state = st::firing;
            fire_.push_back(i);
        }
        for (std::size_t i : alarms_) {
            model_entry& e = entries_[i];
            if (e.state != st::timer || e.cancel) continue;
            alarm_calls_.push_back(e.rid);
            if (alarm_on_[e.rid]) {
                e.state = st::firing;
                fire_.push_back(i);
            }
        }
        ++depth_;
        const std::size_t ran = d_.run_recurrent();
        --depth_;
        FUZZ_CHECK(alarm_calls_.empty());
        while (!fire_.empty()) {  // left: cancelled before their turn
            FUZZ_CHECK(entries_[fire_.front()].cancel);
            release(fire_.front());
        }
        FUZZ_CHECK(ran == ran_);
        rec_running_ = false;
    }

    // ---- clock and queries --------------------------------------------------

    void advance(unsigned how) {
        switch (how % 4) {
        case 0: now_ += in_.byte(); break;
        case 1: now_ += 1000u * in_.byte(); break;
        case 2: now_ += in_.get<std::uint32_t>(); break;
        default: now_ += in_.get<std::uint64_t>() & ((std::uint64_t{1} << 41) - 1); break;
        }
    }

    bool model_next_due(std::uint64_t& at) {
        collect();
        const std::size_t i = earliest();
        if (i == RCap) return false;
        at = entries_[i].due;
        return true;
    }

    void next_due() {
        std::uint64_t at = 0x5a5a, want = 0x5a5a;
        const bool has = model_next_due(want);
        FUZZ_CHECK(d_.next_due(at) == has);
        FUZZ_CHECK(at == want);  // untouched when none
    }

    std::uint64_t model_recurrent_delay() {
        std::uint64_t due = 0;
        if (!model_next_due(due)) return kairos::no_deadline;
        return before(now_, due) ? due - now_ : 0;
    }

    void recurrent_delay() {
        const std::uint64_t want = model_recurrent_delay();
        FUZZ_CHECK(d_.recurrent_delay_us() == want);
    }

    void delay() {
        const std::uint64_t want = queue_.empty() ? model_recurrent_delay() : 0;
        FUZZ_CHECK(d_.delay_us() == want);
    }

    void count() {
        collect();
        FUZZ_CHECK(d_.recurrent_count() == rec_count_);
    }

    void grain() {
        collect();
        std::uint64_t g = 0;
        for (const model_entry& e : entries_) {
            if (e.state != st::free && e.state != st::inbox) g = std::gcd(g, e.period);
        }
        FUZZ_CHECK(d_.recurrent_grain_us() == g);
    }

    void check_counts() {
        FUZZ_CHECK(d_.pending() == queue_.size());
        FUZZ_CHECK(d_.overflows() == overflows_);
        FUZZ_CHECK(d_.recurrent_overflows() == rec_overflows_);
        FUZZ_CHECK(wakes_ == wakes_expected_);
    }

    static void on_wake(void* ctx) noexcept { ++static_cast<harness*>(ctx)->wakes_; }

    void wake_hook(unsigned how) {
        hooked_ = (how & 1) != 0;
        d_.set_wake_hook(hooked_ ? &on_wake : nullptr, this);
    }

    input& in_;
    std::uint64_t now_;
    sched d_;
    // one-shot model
    std::deque<std::uint32_t> queue_;
    std::size_t snapshot_ = 0, done_ = 0;
    bool running_ = false;
    std::uint32_t overflows_ = 0;
    // recurrent model
    model_entry entries_[RCap];
    std::vector<std::size_t> inbox_;
    bool cancel_note_ = false;
    std::vector<std::size_t> alarms_;
    std::deque<std::size_t> fire_;
    std::deque<std::uint32_t> alarm_calls_;
    std::vector<bool> alarm_on_;
    std::vector<tracked_handle> handles_;
    std::uint64_t next_order_ = 0;
    std::size_t rec_count_ = 0;
    std::uint32_t rec_overflows_ = 0;
    bool rec_running_ = false;
    std::uint64_t pass_now_ = 0;
    std::size_t ran_ = 0;
    // both
    std::uint32_t next_id_ = 1;
    int depth_ = 0;
    bool hooked_ = false;
    unsigned wakes_ = 0, wakes_expected_ = 0;
};

template <std::size_t Cap, std::size_t RCap>
void run(input& in) {
    std::uint64_t start = 0;
    switch (in.below(3)) {
    case 0: start = ~std::uint64_t{0} - in.get<std::uint16_t>(); break;  // crosses 2^64 soon
    case 1: start = in.get<std::uint64_t>(); break;
    default: break;
    }
    harness<Cap, RCap> h(in, start);
    h.run();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    input in(data, size);
    switch (in.below(3)) {
    case 0: run<4, 4>(in); break;
    case 1: run<2, 1>(in); break;
    default: run<8, 6>(in); break;
    }
    return 0;
}

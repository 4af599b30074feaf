// SPDX-License-Identifier: MIT
// circular_queue_fuzz: API sequences on the ESP8266-compatible
// circular_queue and circular_queue_mp (through the compat headers
// <circular_queue.h> and <circular_queue_mp.h>) against a model of claimed
// and published positions (mpsc_model.hpp): run-time capacities including
// 0, capacity changes with elements queued, move construction and
// assignment (the moved-from queue is used too), pushpeek()/push(), the T{}
// sentinels of pop() and peek(), for_each and for_each_requeue with a
// lambda and with {fn, arg}. As in mpsc_ring_fuzz, an element copy runs
// other calls between a push's claim and its publish, and consumer
// callbacks run producer calls.
#include "fuzz_common.hpp"
#include "mpsc_model.hpp"

#include <circular_queue.h>
#include <circular_queue_mp.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using kfuzz::input;
using kfuzz::item;
using kfuzz::mpsc_model;

template <class Q>
class harness {
    static constexpr bool mp = std::is_same_v<Q, circular_queue_mp<item, void*>>;

public:
    explicit harness(input& in) : in_(in), model_(0, false) { set_capacity(in_.below(12)); }

    void run() {
        while (in_.more()) step(0);
        check_state();
    }

private:
    struct batch {
        std::uint64_t first;
        std::size_t built;
        std::size_t k;
    };

    // count_for(cap) is the slot count a queue of cap elements has.
    static std::size_t count_for(std::size_t cap) {
        std::size_t n = mp ? 2 : 1;
        while (n < cap) n <<= 1;
        return n;
    }

    void set_capacity(std::size_t cap) {
        FUZZ_CHECK(q_.capacity(cap));
        model_ = mpsc_model(cap, mp && cap != count_for(cap));
    }

    void step(int depth) {
        const std::uint8_t op = in_.byte();
        const bool may_produce = mp || !in_producer_;
        const bool may_consume = !in_consumer_;
        const bool top = depth == 0;
        switch (op % 18) {
        case 0: if (may_produce) push_copy(depth); break;
        case 1: if (may_produce) push_move(); break;
        case 2: if (may_produce) emplace(); break;
        case 3: if (may_produce) push_batch(depth); break;
        case 4: if (may_consume) pop_value(); break;
        case 5: if (may_consume) try_pop(); break;
        case 6: if (may_consume) peek(); break;
        case 7: if (may_consume) pop_batch(); break;
        case 8: if (may_consume) flush(); break;
        case 9: if (may_consume) for_each(depth, op & 0x20); break;
        case 10: if (may_consume) requeue(depth, op >> 5); break;
        case 11: if (top) check_state(); break;
        case 12: if (top) resize(); break;
        case 13: if (top) move_round_trip(); break;
        case 14: if (may_produce) pushpeek(); break;
        case 15: if (may_consume) pop_strong(); break;
        case 16: if (may_produce && !mp) commit_pushpeek(); break;
        default: if (top) FUZZ_CHECK(q_.failed_pushes() == failed_); break;
        }
    }

    void nested(int depth) {
        if (depth >= 3) return;
        const std::size_t n = in_.below(3);
        for (std::size_t i = 0; i < n && in_.more(); ++i) step(depth + 1);
    }

    // push_done(ok, v) records a push that was not interrupted.
    void push_done(bool ok, std::uint32_t v) {
        FUZZ_CHECK(ok == (model_.room() != 0));
        if (ok) {
            model_.publish(model_.claim(v));
        } else {
            ++failed_;
        }
    }

    // The copy hook (see mpsc_ring_fuzz): for circular_queue_mp the batch's
    // earlier elements are published and the current one claimed; for
    // circular_queue nothing of the push is visible yet.
    static void on_copy(void* ctx) {
        auto* self = static_cast<harness*>(ctx);
        batch& b = self->batches_.back();
        if (mp) {
            for (std::size_t i = 0; i < b.built; ++i) self->model_.publish(b.first + i);
        }
        ++b.built;
        self->nested(self->depth_);
    }

    bool hook_free() const { return kfuzz::copy_hook == nullptr && !batches_.empty(); }

    template <class F>
    void with_hook(int depth, std::uint64_t first, std::size_t k, F&& f) {
        batches_.push_back({first, 0, k});
        const int saved = depth_;
        depth_ = depth;
        const bool was_producer = in_producer_;
        in_producer_ = true;
        kfuzz::copy_hook = &on_copy;
        kfuzz::copy_hook_ctx = this;
        f();
        kfuzz::copy_hook = nullptr;
        in_producer_ = was_producer;
        depth_ = saved;
        batches_.pop_back();
    }

    void push_copy(int depth) {
        const std::uint32_t v = next_++;
        const item x(v);
        if (model_.room() == 0 || depth >= 3 || hook_free()) {
            push_done(q_.push(x), v);
            return;
        }
        bool ok = false;
        if (mp) {
            const std::uint64_t pos = model_.claim(v);
            with_hook(depth, pos, 1, [&] { ok = q_.push(x); });
            FUZZ_CHECK(ok);
            model_.publish(pos);
        } else {
            with_hook(depth, 0, 1, [&] { ok = q_.push(x); });
            FUZZ_CHECK(ok);
            model_.publish(model_.claim(v));
        }
    }

    void push_move() {
        const std::uint32_t v = next_++;
        item x(v);
        const bool ok = (in_.byte() & 1) ? q_.push(std::move(x)) : q_.try_push(std::move(x));
        if (!ok) FUZZ_CHECK(x.value() == v);
        push_done(ok, v);
    }

    void emplace() {
        const std::uint32_t v = next_++;
        push_done(q_.try_emplace(v), v);
    }

    void push_batch(int depth) {
        const std::size_t n = in_.below(model_.capacity() + 3);
        std::vector<item> src;
        for (std::size_t i = 0; i < n; ++i) src.emplace_back(next_ + static_cast<std::uint32_t>(i));
        next_ += static_cast<std::uint32_t>(n);
        const std::size_t room = model_.room();
        const std::size_t expect = n < room ? n : room;
        if (expect < n) ++failed_;
        std::uint64_t first = 0;
        if (mp) {
            for (std::size_t i = 0; i < expect; ++i) {
                const std::uint64_t p = model_.claim(src[i].value());
                if (i == 0) first = p;
            }
        }
        std::size_t k = 0;
        if (expect == 0 || depth >= 3 || hook_free()) {
            k = q_.push_n(src.data(), n);
        } else {
            with_hook(depth, first, expect, [&] { k = q_.push_n(src.data(), n); });
        }
        FUZZ_CHECK(k == expect);
        for (std::size_t i = 0; i < k; ++i) {
            if (mp) {
                model_.publish(first + i);
            } else {
                model_.publish(model_.claim(src[i].value()));
            }
        }
    }

    // pending() is the value pushpeek() holds, 0 if none (circular_queue).
    void pushpeek() {
        if constexpr (!mp) {
            if (in_.byte() & 1) {
                pending_ = next_++;
                q_.pushpeek() = item(pending_);
            } else {
                const std::uint32_t seen = q_.pushpeek().value();
                FUZZ_CHECK(seen == pending_);  // 0: built as T{} on first use
            }
        }
    }

    void commit_pushpeek() {
        if constexpr (!mp) {
            const bool room = model_.room() != 0;
            FUZZ_CHECK(q_.push() == room);
            if (room) {
                model_.publish(model_.claim(pending_));
                pending_ = 0;
            } else {
                ++failed_;
            }
        }
    }

    std::uint32_t front_or_sentinel() const {
        if (model_.front_ready()) return model_.front();
        return mp ? 0 : pending_;
    }

    void pop_value() {
        const bool ready = model_.front_ready();
        const std::uint32_t v = q_.pop().value();
        FUZZ_CHECK(v == (ready ? model_.front() : 0));
        if (ready) model_.take(false);
    }

    void try_pop() {
        kfuzz::check_pop(model_, [&](item& out) { return q_.try_pop(out); });
    }

    void pop_strong() {
        if constexpr (mp) {
            if (model_.claimed() != 0 && !model_.front_ready()) return;  // would wait forever
            kfuzz::check_pop(model_, [&](item& out) { return q_.try_pop_strong(out); });
        }
    }

    void peek() {
        const item* f = q_.front();
        FUZZ_CHECK((f != nullptr) == model_.front_ready());
        if (f != nullptr) FUZZ_CHECK(f->value() == model_.front());
        FUZZ_CHECK(q_.peek().value() == front_or_sentinel());
        FUZZ_CHECK(q_.empty() == !model_.front_ready());
    }

    void pop_batch() {
        const std::size_t n = in_.below(model_.capacity() + 3);
        const std::size_t run = model_.published_run();
        const std::size_t expect = n < run ? n : run;
        if (in_.byte() & 1) {
            FUZZ_CHECK(q_.pop_n(nullptr, n) == expect);
            for (std::size_t i = 0; i < expect; ++i) model_.take(false);
            return;
        }
        std::vector<item> out(n);
        FUZZ_CHECK(q_.pop_n(out.data(), n) == expect);
        for (std::size_t i = 0; i < expect; ++i) {
            FUZZ_CHECK(out[i].value() == model_.front());
            model_.take(false);
        }
    }

    void flush() {
        q_.flush();
        while (model_.front_ready()) model_.take(false);
    }

    // visit(e, depth) is one for_each call.
    void visit(item&& e, int depth) {
        FUZZ_CHECK(model_.front_ready() && e.value() == model_.front());
        nested(depth);
        model_.take(true);
    }

    void for_each(int depth, bool bound) {
        // Visits the positions claimed at the start, up to the first unpublished.
        const std::size_t claimed = model_.claimed();
        visits_ = 0;
        depth_arg_ = depth;
        in_consumer_ = true;
        if (bound) {
            q_.for_each({[](void* h, item&& e) {
                             auto* self = static_cast<harness*>(h);
                             ++self->visits_;
                             self->visit(std::move(e), self->depth_arg_);
                         },
                         this});
        } else {
            q_.for_each([&](item&& e) {
                ++visits_;
                visit(std::move(e), depth);
            });
        }
        in_consumer_ = false;
        model_.end_batch();
        FUZZ_CHECK(visits_ <= claimed);
        FUZZ_CHECK(visits_ == claimed || !model_.front_ready());
    }

    void requeue(int depth, unsigned how) {
        const std::size_t n = model_.published_run();
        pattern_ = in_.byte();
        keep_.clear();
        depth_arg_ = depth;
        in_consumer_ = true;
        bool any = false;
        switch (how % 4) {
        case 0:
            any = q_.for_each_requeue([&](item& e) { return decide(e); });
            break;
        case 1:
            any = q_.for_each_rev_requeue([&](item& e) { return decide(e); });
            break;
        case 2:
            any = q_.for_each_requeue(
                {[](void* h, item& e) { return static_cast<harness*>(h)->decide(e); }, this});
            break;
        default:
            any = q_.for_each_rev_requeue(
                {[](void* h, item& e) { return static_cast<harness*>(h)->decide(e); }, this});
            break;
        }
        in_consumer_ = false;
        FUZZ_CHECK(any == (n != 0) && keep_.size() == n);
        std::vector<std::uint32_t> stay;
        for (std::size_t i = 0; i < n; ++i) {
            if (keep_[i]) stay.push_back(model_.slots()[i].value);
        }
        for (std::size_t i = 0; i < n - stay.size(); ++i) model_.take(false);
        for (std::size_t i = 0; i < stay.size(); ++i) model_.slots()[i].value = stay[i];
    }

    bool decide(item& e) {
        const std::size_t i = keep_.size();
        FUZZ_CHECK(i < model_.slots().size() && e.value() == model_.slots()[i].value);
        keep_.push_back(((pattern_ >> (i % 8)) & 1) != 0);
        nested(depth_arg_);
        return keep_.back();
    }

    void resize() {
        const std::uint8_t b = in_.byte();
        const std::size_t cap = b < 250 ? b % 40 : std::size_t{1} << (b - 240);  // up to 2^15
        const bool fits = model_.claimed() <= cap;
        FUZZ_CHECK(q_.capacity(cap) == fits);
        if (!fits) return;
        mpsc_model next(cap, mp && cap != count_for(cap));
        for (const auto& s : model_.slots()) next.publish(next.claim(s.value));
        model_ = std::move(next);
        FUZZ_CHECK(q_.capacity() == cap);
    }

    void move_round_trip() {
        Q other(std::move(q_));
        // The moved-from queue: capacity 0, empty, every push refused.
        FUZZ_CHECK(q_.capacity() == 0 && q_.available() == 0 && q_.empty());
        FUZZ_CHECK(!q_.push(item(next_++)));
        ++failed_;
        FUZZ_CHECK(other.capacity() == model_.capacity());
        if (in_.byte() & 1) {
            q_ = std::move(other);
        } else {
            Q third(std::move(other));
            q_ = std::move(third);
        }
        if constexpr (!mp) {
            if (pending_ != 0) FUZZ_CHECK(q_.pushpeek().value() == pending_);
        }
    }

    void check_state() {
        FUZZ_CHECK(q_.capacity() == model_.capacity());
        FUZZ_CHECK(q_.size() == model_.claimed());
        FUZZ_CHECK(q_.available() == model_.published_run());
        FUZZ_CHECK(q_.available_for_push() == model_.capacity() - model_.claimed());
        FUZZ_CHECK(q_.empty() == !model_.front_ready());
        FUZZ_CHECK(q_.failed_pushes() == failed_);
    }

    input& in_;
    Q q_;
    mpsc_model model_;
    std::vector<batch> batches_;
    std::vector<bool> keep_;
    std::uint32_t next_ = 1;
    std::uint32_t failed_ = 0;
    std::uint32_t pending_ = 0;
    std::size_t visits_ = 0;
    std::uint8_t pattern_ = 0;
    int depth_ = 0;
    int depth_arg_ = 0;
    bool in_producer_ = false;
    bool in_consumer_ = false;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    input in(data, size);
    if (in.byte() & 1) {
        harness<circular_queue_mp<item, void*>> h(in);
        h.run();
    } else {
        harness<circular_queue<item, void*>> h(in);
        h.run();
    }
    return 0;
}

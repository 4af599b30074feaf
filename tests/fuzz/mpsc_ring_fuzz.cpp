// SPDX-License-Identifier: MIT
// mpsc_ring_fuzz: API sequences on kairos::mpsc_ring against a model of
// claimed and published positions (mpsc_model.hpp), over capacities 2..64
// and 32/64-bit positions starting anywhere (the wrap and the zero state).
// An element copy runs a hook (fuzz_common.hpp) between a producer's claim
// and its publish; the hook runs other calls there, as an interrupt
// would: consumer calls that must stop at the unpublished slot and other
// producers' pushes that claim the slots behind it. Consumer callbacks
// (consume, try_consume, requeue) run producer calls too.
#include "fuzz_common.hpp"
#include "mpsc_model.hpp"

#include <kairos/mpsc_ring.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

using kfuzz::input;
using kfuzz::item;
using kfuzz::mpsc_model;

template <class Ring>
class harness {
public:
    harness(input& in, typename Ring::index_type start)
        : in_(in), ring_(start), model_(Ring::capacity(), false) {}

    void run() {
        while (in_.more()) step(0);
        check_state();
        // The destructor destroys what is left (LeakSanitizer checks it).
    }

private:
    // A push in progress: positions first .. first+k-1 claimed, the first
    // `built` of them constructed (and so published once the next copy starts).
    struct batch {
        std::uint64_t first;
        std::size_t built;
    };

    void step(int depth) {
        const std::uint8_t op = in_.byte();
        const bool may_consume = !in_consumer_;
        switch (op % 13) {
        case 0: push_copy(depth); break;
        case 1: push_move(); break;
        case 2: push_batch(depth); break;
        case 3: if (may_consume) try_pop(); break;
        case 4: if (may_consume) front_pop(); break;
        case 5: if (may_consume) pop_batch(); break;
        case 6: if (may_consume) consume(depth); break;
        case 7: if (may_consume) requeue(depth); break;
        case 8: if (may_consume) try_consume(depth); break;
        case 9: if (may_consume) pop_strong(); break;
        case 10: if (may_consume) check_consumer_view(); break;
        case 11: if (depth == 0) check_state(); break;
        default: {
            const std::uint32_t v = next_++;
            const bool room = model_.room() != 0;
            FUZZ_CHECK(ring_.try_emplace(v) == room);
            if (room) model_.publish(model_.claim(v)); else ++failed_;
            break;
        }
        }
    }

    void nested(int depth) {
        if (depth >= 3) return;
        const std::size_t n = in_.below(3);
        for (std::size_t i = 0; i < n && in_.more(); ++i) step(depth + 1);
    }

    // The copy hook: the batch's elements built so far are published, the
    // current one is claimed but not, and other calls run now.
    static void on_copy(void* ctx) {
        auto* self = static_cast<harness*>(ctx);
        batch& b = self->batches_.back();
        for (std::size_t i = 0; i < b.built; ++i) self->model_.publish(b.first + i);
        ++b.built;
        self->nested(self->depth_);
    }

    // with_hook(depth, first, f) runs f() with the copy hook armed for a
    // push whose claimed positions start at first.
    template <class F>
    void with_hook(int depth, std::uint64_t first, F&& f) {
        batches_.push_back({first, 0});
        const int saved = depth_;
        depth_ = depth;
        kfuzz::copy_hook = &on_copy;
        kfuzz::copy_hook_ctx = this;
        f();
        kfuzz::copy_hook = nullptr;
        depth_ = saved;
        batches_.pop_back();
    }

    void push_copy(int depth) {
        const std::uint32_t v = next_++;
        const item x(v);
        const bool room = model_.room() != 0;
        bool ok = false;
        if (!room) {
            ok = ring_.try_push(x);
            ++failed_;
        } else if (depth >= 3 || (kfuzz::copy_hook == nullptr && !batches_.empty())) {
            ok = ring_.try_push(x);  // inside a hook: copies run no hook
            model_.publish(model_.claim(v));
        } else {
            const std::uint64_t pos = model_.claim(v);
            with_hook(depth, pos, [&] { ok = ring_.try_push(x); });
            model_.publish(pos);
        }
        FUZZ_CHECK(ok == room);
    }

    void push_move() {
        const std::uint32_t v = next_++;
        item x(v);
        const bool room = model_.room() != 0;
        FUZZ_CHECK(ring_.try_push(std::move(x)) == room);
        if (room) {
            model_.publish(model_.claim(v));
        } else {
            FUZZ_CHECK(x.value() == v);  // a refused move leaves x alone
            ++failed_;
        }
    }

    void push_batch(int depth) {
        const std::size_t n = in_.below(Ring::capacity() + 3);
        std::vector<item> src;
        for (std::size_t i = 0; i < n; ++i) src.emplace_back(next_ + static_cast<std::uint32_t>(i));
        next_ += static_cast<std::uint32_t>(n);
        const std::size_t room = model_.room();
        const std::size_t expect = n < room ? n : room;
        if (expect < n) ++failed_;
        if (n == 0) {
            FUZZ_CHECK(ring_.push_n(src.data(), 0) == 0);
            return;
        }
        std::uint64_t first = 0;
        for (std::size_t i = 0; i < expect; ++i) {
            const std::uint64_t p = model_.claim(src[i].value());
            if (i == 0) first = p;
        }
        std::size_t k = 0;
        if (depth >= 3 || (kfuzz::copy_hook == nullptr && !batches_.empty())) {
            k = ring_.push_n(src.data(), n);
        } else {
            with_hook(depth, first, [&] { k = ring_.push_n(src.data(), n); });
        }
        FUZZ_CHECK(k == expect);
        for (std::size_t i = 0; i < k; ++i) model_.publish(first + i);
    }

    void check_front(const item* f) {
        FUZZ_CHECK((f != nullptr) == model_.front_ready());
        if (f != nullptr) FUZZ_CHECK(f->value() == model_.front());
    }

    void try_pop() {
        kfuzz::check_pop(model_, [&](item& out) { return ring_.try_pop(out); });
    }

    void front_pop() {
        item* f = ring_.front();
        check_front(f);
        if (f == nullptr) return;
        ring_.pop();
        model_.take(false);
    }

    // try_pop_strong() waits for an unpublished front slot: only call it
    // when none is (single context: it would wait forever).
    void pop_strong() {
        if (model_.claimed() != 0 && !model_.front_ready()) return;
        kfuzz::check_pop(model_, [&](item& out) { return ring_.try_pop_strong(out); });
    }

    void pop_batch() {
        const std::size_t n = in_.below(Ring::capacity() + 3);
        std::vector<item> out(n);
        const std::size_t k = ring_.pop_n(out.begin(), n);
        const std::size_t run = model_.published_run();
        FUZZ_CHECK(k == (n < run ? n : run));
        for (std::size_t i = 0; i < k; ++i) {
            FUZZ_CHECK(out[i].value() == model_.front());
            model_.take(false);
        }
    }

    void consume(int depth) {
        const std::size_t max =
            (in_.byte() & 1) ? ~std::size_t{0} : in_.below(Ring::capacity() + 2);
        // Visits positions claimed at the start, up to the first unpublished.
        const std::size_t claimed = model_.claimed() < max ? model_.claimed() : max;
        std::size_t calls = 0;
        in_consumer_ = true;
        const std::size_t k = ring_.consume(
            [&](item&& e) {
                FUZZ_CHECK(calls < claimed && model_.front_ready());
                FUZZ_CHECK(e.value() == model_.front());
                ++calls;
                nested(depth);
                model_.take(true);
            },
            max);
        in_consumer_ = false;
        model_.end_batch();
        FUZZ_CHECK(k == calls);
        FUZZ_CHECK(k == claimed || !model_.front_ready());
    }

    void try_consume(int depth) {
        const bool ready = model_.front_ready();
        bool called = false;
        in_consumer_ = true;
        const bool ok = ring_.try_consume([&](item&& e) {
            FUZZ_CHECK(!called && e.value() == model_.front());
            called = true;
            nested(depth);
        });
        in_consumer_ = false;
        FUZZ_CHECK(ok == ready && called == ready);
        if (ok) model_.take(false);
    }

    void requeue(int depth) {
        const std::size_t n = model_.published_run();
        const std::uint8_t pattern = in_.byte();
        std::vector<bool> keep;
        in_consumer_ = true;
        const std::size_t kept = ring_.requeue([&](item& e) {
            const std::size_t i = keep.size();
            FUZZ_CHECK(i < n && e.value() == model_.slots()[i].value);
            keep.push_back(((pattern >> (i % 8)) & 1) != 0);
            nested(depth);
            return bool(keep.back());
        });
        in_consumer_ = false;
        FUZZ_CHECK(keep.size() == n);
        // The kept elements stay in order at the back of the n visited
        // positions; the dropped positions are freed from the front.
        std::vector<std::uint32_t> stay;
        for (std::size_t i = 0; i < n; ++i) {
            if (keep[i]) stay.push_back(model_.slots()[i].value);
        }
        FUZZ_CHECK(kept == stay.size());
        for (std::size_t i = 0; i < n - kept; ++i) model_.take(false);
        for (std::size_t i = 0; i < kept; ++i) model_.slots()[i].value = stay[i];
    }

    void check_consumer_view() {
        const Ring& cr = ring_;
        check_front(cr.front());
        FUZZ_CHECK(cr.empty() == !model_.front_ready());
    }

    void check_state() {
        FUZZ_CHECK(ring_.size() == model_.claimed());
        FUZZ_CHECK(ring_.empty() == !model_.front_ready());
        FUZZ_CHECK(ring_.failed_pushes() == failed_);
    }

    input& in_;
    Ring ring_;
    mpsc_model model_;
    std::vector<batch> batches_;
    std::uint32_t next_ = 1;
    std::uint32_t failed_ = 0;
    int depth_ = 0;
    bool in_consumer_ = false;
};

template <std::size_t N, class Index>
void run(input& in) {
    harness<kairos::mpsc_ring<item, N, Index>> h(in, kfuzz::pick_start<Index>(in));
    h.run();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    input in(data, size);
    switch (in.below(6)) {
    case 0: run<2, std::uint32_t>(in); break;
    case 1: run<4, std::uint32_t>(in); break;
    case 2: run<8, std::uint64_t>(in); break;
    case 3: run<2, std::uint64_t>(in); break;
    case 4: run<64, std::uint32_t>(in); break;
    default: run<4, std::uint64_t>(in); break;
    }
    return 0;
}

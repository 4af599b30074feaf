// SPDX-License-Identifier: MIT
// spsc_ring_fuzz: API sequences on kairos::spsc_ring and
// kairos::spsc_slot_ring against a std::deque model, over capacities 1..128
// and index widths 8..64 bits with the start index anywhere (so the wrap is
// crossed). The slot ring has no batch calls, requeue or size(); those steps
// are skipped for it. A producer call may be
// "interrupted" by consumer calls (inside push_n, between building an
// element and publishing the batch) and a consumer call by producer calls
// (inside consume() and requeue() callbacks), the single-context
// interleavings an ISR on either side produces.
#include "fuzz_common.hpp"

#include <kairos/spsc_ring.hpp>
#include <kairos/spsc_slot_ring.hpp>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <iterator>
#include <type_traits>
#include <vector>

namespace {

using kfuzz::input;
using kfuzz::item;

// full_api<Ring> is true for spsc_ring (batches, requeue, size(), const
// front()), false for spsc_slot_ring.
template <class Ring, class = void>
struct full_api : std::false_type {};
template <class Ring>
struct full_api<Ring, std::void_t<decltype(std::declval<Ring&>().size())>> : std::true_type {};

template <class Ring>
class harness {
public:
    harness(input& in, typename Ring::index_type start) : in_(in), ring_(start) {}

    void run() {
        while (in_.more()) step(0);
        check_state();
    }

private:
    // step(depth) runs one call chosen by the input; depth > 0 inside a
    // callback of the other side.
    void step(int depth) {
        const std::uint8_t op = in_.byte();
        const bool may_produce = !in_producer_;
        const bool may_consume = !in_consumer_;
        switch (op % 12) {
        case 0:
        case 1:
            if (may_produce) push_one(op & 0x10);
            break;
        case 2:
            if constexpr (full_api<Ring>::value) {
                if (may_produce) push_batch(depth);
            }
            break;
        case 3:
            if (may_consume) try_pop();
            break;
        case 4:
            if (may_consume) front_pop();
            break;
        case 5:
            if constexpr (full_api<Ring>::value) {
                if (may_consume) pop_batch();
            }
            break;
        case 6:
            if (may_consume) consume(depth);
            break;
        case 7:
            if constexpr (full_api<Ring>::value) {
                if (may_consume) requeue(depth);
            }
            break;
        case 8:
            if constexpr (!full_api<Ring>::value) {
                if (may_consume) FUZZ_CHECK(ring_.empty() == model_.empty());
            } else if (may_consume) {  // front() const: no cached-index refresh
                const Ring& cr = ring_;
                const item* f = cr.front();
                FUZZ_CHECK((f != nullptr) == !model_.empty());
                if (f != nullptr) FUZZ_CHECK(f->value() == model_.front());
            }
            break;
        case 9:
            if (depth == 0) check_state();
            break;
        default:
            if (may_produce) {
                const std::uint32_t v = next_++;
                const bool ok = ring_.try_emplace(v);
                model_push(ok, v);
            }
            break;
        }
    }

    // nested(depth) runs up to two calls of the other side from a callback.
    void nested(int depth) {
        if (depth >= 3) return;
        const std::size_t n = in_.below(3);
        for (std::size_t i = 0; i < n && in_.more(); ++i) step(depth + 1);
    }

    void model_push(bool ok, std::uint32_t v) {
        const bool room = model_.size() < ring_.capacity();
        FUZZ_CHECK(ok == room);
        if (ok) {
            model_.push_back(v);
        } else {
            ++failed_;
        }
    }

    void push_one(bool by_move) {
        const std::uint32_t v = next_++;
        item x(v);
        const bool ok = by_move ? ring_.try_push(std::move(x)) : ring_.try_push(x);
        if (!ok) FUZZ_CHECK(x.value() == v);  // a refused move leaves v untouched
        model_push(ok, v);
    }

    // maker is push_n's source: dereferencing it runs consumer calls first,
    // as an interrupting consumer would, while the batch is unpublished.
    struct maker {
        harness* h;
        std::uint32_t base;
        std::size_t i;
        int depth;
        item operator*() const {
            h->nested(depth);
            return item(base + static_cast<std::uint32_t>(i));
        }
        maker& operator++() {
            ++i;
            return *this;
        }
    };

    void push_batch(int depth) {
        const std::size_t n = in_.below(ring_.capacity() + 3);
        const std::uint32_t base = next_;
        next_ += static_cast<std::uint32_t>(n);
        const std::size_t room = ring_.capacity() - model_.size();
        const std::size_t expect = n < room ? n : room;
        std::size_t k;
        if (in_.byte() & 1) {
            std::vector<item> src;
            for (std::size_t i = 0; i < n; ++i) src.emplace_back(base + static_cast<std::uint32_t>(i));
            k = ring_.push_n(src.data(), n);
        } else {
            in_producer_ = true;
            k = ring_.push_n(maker{this, base, 0, depth}, n);
            in_producer_ = false;
        }
        FUZZ_CHECK(k == expect);
        if (k < n) ++failed_;
        for (std::size_t i = 0; i < k; ++i) model_.push_back(base + static_cast<std::uint32_t>(i));
    }

    void try_pop() {
        item out;
        const bool ok = ring_.try_pop(out);
        FUZZ_CHECK(ok == !model_.empty());
        if (ok) {
            FUZZ_CHECK(out.value() == model_.front());
            model_.pop_front();
        }
    }

    void front_pop() {
        item* f = ring_.front();
        FUZZ_CHECK((f != nullptr) == !model_.empty());
        if (f == nullptr) return;
        FUZZ_CHECK(f->value() == model_.front());
        ring_.pop();
        model_.pop_front();
    }

    void pop_batch() {
        const std::size_t n = in_.below(ring_.capacity() + 3);
        std::vector<item> out(n);
        const std::size_t k = ring_.pop_n(out.begin(), n);
        FUZZ_CHECK(k == (n < model_.size() ? n : model_.size()));
        for (std::size_t i = 0; i < k; ++i) {
            FUZZ_CHECK(out[i].value() == model_.front());
            model_.pop_front();
        }
    }

    void consume(int depth) {
        const std::size_t max = (in_.byte() & 1) ? ~std::size_t{0} : in_.below(ring_.capacity() + 2);
        const std::size_t expect = max < model_.size() ? max : model_.size();
        std::size_t calls = 0;
        in_consumer_ = true;
        const std::size_t k = ring_.consume(
            [&](item&& e) {
                FUZZ_CHECK(e.value() == model_.front());
                ++calls;
                nested(depth);  // the element's slot is freed after this call
                model_.pop_front();
            },
            max);
        in_consumer_ = false;
        if constexpr (full_api<Ring>::value) {
            FUZZ_CHECK(k == expect && calls == expect);  // only what was there at the start
        } else {
            (void)expect;  // the slot ring also visits what was pushed during the pass
            FUZZ_CHECK(k == calls && (k == max || model_.empty()));
        }
    }

    void requeue(int depth) {
        const std::size_t n = model_.size();
        const std::uint8_t pattern = in_.byte();
        std::vector<bool> keep;
        in_consumer_ = true;
        const std::size_t kept = ring_.requeue([&](item& e) {
            const std::size_t i = keep.size();
            FUZZ_CHECK(i < n && e.value() == model_[i]);
            keep.push_back(((pattern >> (i % 8)) & 1) != 0);
            nested(depth);  // producer pushes land behind the n visited
            return bool(keep.back());
        });
        in_consumer_ = false;
        FUZZ_CHECK(keep.size() == n);
        std::deque<std::uint32_t> next;
        for (std::size_t i = 0; i < n; ++i) {
            if (keep[i]) next.push_back(model_[i]);
        }
        FUZZ_CHECK(kept == next.size());
        for (std::size_t i = n; i < model_.size(); ++i) next.push_back(model_[i]);
        model_.swap(next);
    }

    void check_state() {
        if constexpr (full_api<Ring>::value) {
            FUZZ_CHECK(ring_.size() == model_.size());
            FUZZ_CHECK(ring_.empty() == model_.empty());
        }
        FUZZ_CHECK(ring_.failed_pushes() == failed_);
    }

    input& in_;
    Ring ring_;
    std::deque<std::uint32_t> model_;
    std::uint32_t next_ = 1;
    std::uint32_t failed_ = 0;
    bool in_producer_ = false;
    bool in_consumer_ = false;
};

template <class Ring>
void run(input& in) {
    harness<Ring> h(in, kfuzz::pick_start<typename Ring::index_type>(in));
    h.run();
}

template <std::size_t N, class Index>
using index_ring = kairos::spsc_ring<item, N, Index>;
template <std::size_t N, class Index>
using slot_ring = kairos::spsc_slot_ring<item, N, Index>;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    input in(data, size);
    switch (in.below(12)) {
    case 0: run<index_ring<1, std::uint8_t>>(in); break;
    case 1: run<index_ring<2, std::uint8_t>>(in); break;
    case 2: run<index_ring<4, std::uint16_t>>(in); break;
    case 3: run<index_ring<8, std::uint32_t>>(in); break;
    case 4: run<index_ring<4, std::uint64_t>>(in); break;
    case 5: run<index_ring<128, std::uint8_t>>(in); break;
    case 6: run<index_ring<16, std::uint32_t>>(in); break;
    case 7: run<index_ring<2, std::uint64_t>>(in); break;
    case 8: run<slot_ring<2, std::uint8_t>>(in); break;
    case 9: run<slot_ring<4, std::uint16_t>>(in); break;
    case 10: run<slot_ring<128, std::uint8_t>>(in); break;
    default: run<slot_ring<8, std::uint64_t>>(in); break;
    }
    return 0;
}

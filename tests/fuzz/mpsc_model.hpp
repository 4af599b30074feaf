// SPDX-License-Identifier: MIT
// mpsc_model.hpp: the reference model of an MPSC ring for the fuzzers
// (mpsc_ring, circular_queue_mp): positions from the consumer's tail to the
// producers' head, each claimed and, once its producer finished, published
// with a value. The consumer sees a prefix of published positions only.
#pragma once

#include "fuzz_common.hpp"

#include <cstddef>
#include <cstdint>
#include <deque>

namespace kfuzz {

class mpsc_model {
public:
    struct slot {
        std::uint32_t value;
        bool published;
    };

    // capacity: elements; lag counts elements the consumer took in a batch
    // whose tail store is still to come (circular_queue_mp's fill-level
    // check reads that tail; a fixed ring's slots need no lag).
    explicit mpsc_model(std::size_t capacity, bool tail_limits) noexcept
        : capacity_(capacity), tail_limits_(tail_limits) {}

    std::size_t capacity() const noexcept { return capacity_; }
    std::size_t claimed() const noexcept { return q_.size(); }
    // room() is how many claims succeed now.
    std::size_t room() const noexcept {
        const std::size_t used = q_.size() + (tail_limits_ ? lag_ : 0);
        return used < capacity_ ? capacity_ - used : 0;
    }
    // claim(v) claims the next position for v; returns the position.
    std::uint64_t claim(std::uint32_t v) {
        q_.push_back({v, false});
        return base_ + q_.size() - 1;
    }
    // publish(pos) marks pos published; a position already taken by the
    // consumer (published earlier, inside a hook) is left alone.
    void publish(std::uint64_t pos) {
        if (pos >= base_) at(pos).published = true;
    }
    slot& at(std::uint64_t pos) {
        FUZZ_CHECK(pos >= base_ && pos - base_ < q_.size());
        return q_[static_cast<std::size_t>(pos - base_)];
    }
    bool front_ready() const noexcept { return !q_.empty() && q_.front().published; }
    std::uint32_t front() const { return q_.front().value; }
    // take(batch) removes the front element; batch: its tail store comes later.
    void take(bool batch) {
        q_.pop_front();
        ++base_;
        if (batch) ++lag_;
    }
    void end_batch() noexcept { lag_ = 0; }
    // published_run() is how many positions from the front are published.
    std::size_t published_run() const noexcept {
        std::size_t n = 0;
        while (n < q_.size() && q_[n].published) ++n;
        return n;
    }
    std::deque<slot>& slots() noexcept { return q_; }
    void reset(std::size_t capacity) {
        capacity_ = capacity;
        lag_ = 0;
    }

private:
    std::size_t capacity_;
    bool tail_limits_;
    std::deque<slot> q_;
    std::uint64_t base_ = 0;
    std::size_t lag_ = 0;
};

// check_pop(m, pop) runs pop(out), a try_pop-like call, and checks it
// against m: true with the front element when one is published.
template <class Pop>
void check_pop(mpsc_model& m, Pop&& pop) {
    item out;
    const bool ok = pop(out);
    FUZZ_CHECK(ok == m.front_ready());
    if (!ok) return;
    FUZZ_CHECK(out.value() == m.front());
    m.take(false);
}

}  // namespace kfuzz

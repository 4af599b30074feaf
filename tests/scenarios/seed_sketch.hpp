// SPDX-License-Identifier: MIT
// seed_sketch.hpp: the sketch of seed 000 (esp8266/Arduino PR #6139,
// /work/shared/reference/seeds/000_*), its state, producer and checker,
// written once for the host bench (bench/host/deferred_bench.cpp: a signal
// ticker, kairos against the linked-list baseline) and the target stress
// (tests/target/seed_stress.hpp: a timer interrupt, QEMU virtual time).
// The producer runs in interrupt (or signal) context and pushes `chunk`
// messages per tick; the scheduled functions run in the main loop and check
// each message. Freestanding: only <cstdint>.
#pragma once

#include <cstdint>

namespace seed_sketch {

// state: the sketch's globals (msgNo, nextVal[0], pending), the counters of
// its prints and the ticks taken. volatile where one side writes what the
// other polls: the producer's msg_no and ticks, the checker's pending; the
// other counters are read only after the producer has stopped.
struct state {
    std::uint32_t count = 0, chunk = 0;  // messages in all, attempts per tick
    std::uint32_t tick_limit = 0;        // for a loop that gives up (target)
    volatile std::uint32_t msg_no = 0;
    volatile std::uint32_t ticks = 0;
    volatile std::int32_t pending = 1;
    std::uint32_t next_val = 0;
    std::uint32_t failed = 0;     // refused push attempts (queue full)
    std::uint32_t lost = 0;       // values skipped, summed
    std::uint32_t reordered = 0;  // values in reverse
    std::uint32_t bad_id = 0;
};

// check(s, msg) is the sketch's checkMessage(): it counts a bad id, a value
// in reverse and the values skipped, and returns false on the last message
// (pending drops to 0). Context: the scheduled function.
inline bool check(state& s, std::uint32_t msg) noexcept {
    const std::uint32_t id = msg & 0x1f;
    const std::uint32_t val = msg >> 5;
    if (id >= 1) {
        ++s.bad_id;
        return true;
    }
    if (val == s.count - 1) {
        s.pending = s.pending - 1;
        return false;
    }
    if (val != s.next_val) {
        if (val < s.next_val) {
            ++s.reordered;
        } else {
            s.lost += val - s.next_val;
        }
    }
    s.next_val = val + 1;
    return true;
}

// produce(s, push) is the sketch's tickerCallback(): it counts the tick and
// makes `chunk` attempts, each offering the next message (value msg_no, id
// 0) to push(msg), which returns false if the queue is full; a refused
// attempt is counted and the same message offered at the next attempt.
// Context: interrupt or signal.
template <class Push>
inline void produce(state& s, Push&& push) noexcept {
    s.ticks = s.ticks + 1;
    for (std::uint32_t i = 0; i < s.chunk; ++i) {
        if (s.msg_no >= s.count) return;
        if (push((s.msg_no << 5) + 0)) {
            s.msg_no = s.msg_no + 1;
        } else {
            ++s.failed;
        }
    }
}

}  // namespace seed_sketch

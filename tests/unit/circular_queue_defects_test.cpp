// SPDX-License-Identifier: MIT
// circular_queue / circular_queue_mp against the original's observable
// behaviour where code depends on it:
//   - peek() on an empty circular_queue shows the element pushpeek() is
//     building (EspSoftwareSerial reads parity bits of the byte it has not
//     committed yet that way);
//   - circular_queue_mp::available() counts only what pop() can deliver,
//     also while a producer is stopped between claiming and publishing.
// The interrupted producer is simulated without threads or time: the
// element's move constructor, which runs inside the claimed slot, calls a
// hook that plays the interrupt (consumer calls, a nested push).
#include "circular_queue/circular_queue_mp.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>

namespace {

// ---- item: peek() on an empty queue returns the pushpeek() element --------

TEST(circular_queue_defects, peek_on_empty_shows_the_pushpeek_element) {
    circular_queue<std::uint8_t> q(2);
    q.pushpeek() |= 0x01;
    EXPECT_EQ(q.available(), 0u);
    EXPECT_EQ(q.peek(), 0x01);  // the original returns m_buffer[inPos] here
    q.pushpeek() |= 0x04;
    EXPECT_EQ(q.peek(), 0x05);
    ASSERT_TRUE(q.push());
    q.pushpeek() = 0x40;  // the next byte under construction
    EXPECT_EQ(q.peek(), 0x05);  // not empty: the oldest element
    EXPECT_EQ(q.pop(), 0x05);
    EXPECT_EQ(q.peek(), 0x40);  // empty again: the pending one
    const auto& cq = q;
    EXPECT_EQ(cq.peek(), 0x40);  // peek() is const, as in the original
}

// EspSoftwareSerial's parity bookkeeping: one parity bit per received byte,
// eight to a parity byte built with pushpeek() and committed by push() when
// full; read() takes the bit of the byte it returns with peek(), popping the
// parity byte after its eighth bit. Bytes 8.. are read while their parity
// byte is still under construction, so only peek() on an empty queue has
// their bits.
TEST(circular_queue_defects, software_serial_parity_bits_round_trip) {
    circular_queue<std::uint8_t> data(16);
    circular_queue<std::uint8_t> parity((data.capacity() + 7) / 8);
    auto parity_of = [](unsigned i) { return (i * 5u + 1u) % 3u == 0; };
    std::uint8_t in_pos = 1, out_pos = 1;
    unsigned next_read = 0;
    for (unsigned i = 0; i < 12; ++i) {
        ASSERT_TRUE(data.push(static_cast<std::uint8_t>(i)));
        if (parity_of(i)) {
            parity.pushpeek() |= in_pos;
        } else {
            parity.pushpeek() &= static_cast<std::uint8_t>(~in_pos);
        }
        in_pos = static_cast<std::uint8_t>(in_pos << 1);
        if (in_pos == 0) {
            ASSERT_TRUE(parity.push());
            in_pos = 1;
        }
        // Read as soon as two bytes wait, so reads run ahead of the commit.
        while (data.available() > (i < 11 ? 1u : 0u)) {
            const unsigned v = data.pop();
            ASSERT_EQ(v, next_read);
            const bool bit = (parity.peek() & out_pos) != 0;
            EXPECT_EQ(bit, parity_of(v)) << "byte " << v;
            out_pos = static_cast<std::uint8_t>(out_pos << 1);
            if (out_pos == 0) {
                out_pos = 1;
                (void)parity.pop();
            }
            ++next_read;
        }
    }
    EXPECT_EQ(next_read, 12u);
}

// ---- item: circular_queue_mp::available() counts deliverable elements -----

// hooked is an element whose move constructor calls hook (when set) before
// it finishes: a push of it stops with its slot claimed but unpublished for
// as long as the hook runs, as when an interrupt preempts the producer there.
struct hooked {
    static void (*&hook())() {
        static void (*h)() = nullptr;
        return h;
    }
    int v = 0;
    hooked() noexcept = default;
    explicit hooked(int x) noexcept : v(x) {}
    hooked(const hooked& o) noexcept = default;
    hooked(hooked&& o) noexcept : v(o.v) {
        if (void (*h)() = hook()) {
            hook() = nullptr;  // only the outermost push stops
            h();
        }
    }
    hooked& operator=(const hooked&) noexcept = default;
    hooked& operator=(hooked&&) noexcept = default;
};
static_assert(std::is_nothrow_move_constructible_v<hooked>);

circular_queue_mp<hooked>* mp_q = nullptr;
int isr_runs = 0;

// While the stalled push holds slot 1 (slot 0 is published): available()
// must say 1, and after that pop, 0; a nested push lands behind the stalled
// slot and is not deliverable either.
void interrupt_mid_push() {
    ++isr_runs;
    circular_queue_mp<hooked>& q = *mp_q;
    EXPECT_EQ(q.available(), 1u);
    EXPECT_EQ(q.pop().v, 1);
    EXPECT_EQ(q.available(), 0u) << "the stalled push is not poppable";
    hooked out;
    EXPECT_FALSE(q.try_pop(out));
    EXPECT_EQ(q.pop().v, 0);  // the sentinel, as available() said
    EXPECT_TRUE(q.push(hooked{3}));  // the interrupt produces too
    EXPECT_EQ(q.available(), 0u) << "published, but behind the stalled slot";
    EXPECT_FALSE(q.try_pop(out));
    EXPECT_EQ(q.available_for_push(), q.capacity() - 2u) << "claimed slots are not free";
}

TEST(circular_queue_defects, mp_available_counts_only_what_pop_delivers) {
    circular_queue_mp<hooked> q(4);
    mp_q = &q;
    isr_runs = 0;
    ASSERT_TRUE(q.push(hooked{1}));
    EXPECT_EQ(q.available(), 1u);
    hooked::hook() = &interrupt_mid_push;
    ASSERT_TRUE(q.push(hooked{2}));
    EXPECT_EQ(isr_runs, 1);
    EXPECT_EQ(q.available(), 2u);
    EXPECT_EQ(q.pop().v, 2);
    EXPECT_EQ(q.available(), 1u);
    EXPECT_EQ(q.pop().v, 3);
    EXPECT_EQ(q.available(), 0u);
    mp_q = nullptr;
}

// available() after a wrap and with a capacity below the slot count (5 of
// 8 slots): the count stays exact over several laps.
TEST(circular_queue_defects, mp_available_exact_over_laps) {
    circular_queue_mp<int> q(5);
    int next_in = 0, next_out = 0;
    for (int lap = 0; lap < 20; ++lap) {
        while (q.push(next_in)) ++next_in;
        EXPECT_EQ(q.available(), 5u);
        EXPECT_EQ(q.available_for_push(), 0u);
        for (int k = 0; k < 2 + lap % 3; ++k) EXPECT_EQ(q.pop(), next_out++);
        EXPECT_EQ(q.available(), static_cast<std::size_t>(next_in - next_out));
    }
}

}  // namespace

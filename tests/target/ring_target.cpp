// SPDX-License-Identifier: MIT
// Ring scenarios on the target core, plus the case the rings exist for on a
// microcontroller: an interrupt producing while thread mode consumes.
//
// Single-context scenarios: tests/scenarios/ring_scenarios.hpp over the
// index widths a 32-bit MCU has lock-free (8/16/32-bit; 64-bit indices would
// need __atomic_load_8). Interrupt scenarios: a timer interrupt (SysTick;
// lx106 CCOMPARE0) pushes a sequence into the ring every few microseconds
// while main() pops; on the MPSC ring main() also pushes its own sequence,
// so the interrupt regularly lands inside a thread push (on ARMv6-M and
// lx106 the slot claim runs in the port's critical section instead of CAS).
// The consumer checks each producer's values arrive complete, once and in
// order; a full ring is a counted, retried failure, never a loss.
#include <kairos/mpsc_ring.hpp>
#include <kairos/spsc_ring.hpp>

#include <cstdint>

#include "ring_scenarios.hpp"
#include "runner.hpp"

namespace {

using namespace scenarios;

template <class V>
void all() {
    ring_all<V>();
}

// ---- interrupt producer ----------------------------------------------------

constexpr std::uint32_t isr_items = 3000;  // values the interrupt produces
constexpr std::uint32_t tag_thread = 0x80000000u;

struct isr_state {
    volatile std::uint32_t next = 0;   // next value to push (advanced on success)
    volatile std::uint32_t full = 0;   // pushes refused because the ring was full
};
isr_state isr;
kairos::spsc_ring<std::uint32_t, 16> spsc_q;
kairos::mpsc_ring<std::uint32_t, 16> mpsc_q;

template <class Ring>
void isr_push(Ring& q) {
    const std::uint32_t v = isr.next;
    if (v == isr_items) return;
    if (q.try_push(v)) {
        isr.next = v + 1;
    } else {
        isr.full = isr.full + 1;  // retried next tick: nothing is lost
    }
}
void isr_push_spsc() { isr_push(spsc_q); }
void isr_push_mpsc() { isr_push(mpsc_q); }

// drain_checked(q, expect_isr, expect_thread) pops everything available and
// checks per-producer order; returns false on the first violation.
template <class Ring>
bool drain_checked(Ring& q, std::uint32_t& expect_isr, std::uint32_t& expect_thread) {
    std::uint32_t v;
    while (q.try_pop(v)) {
        if (v & tag_thread) {
            if (v != (expect_thread | tag_thread)) return false;
            ++expect_thread;
        } else {
            if (v != expect_isr) return false;
            ++expect_isr;
        }
    }
    return true;
}

// An odd period so the interrupt lands at varying points of the loops below.
constexpr std::uint32_t period_us = 3;

// stall(us) spins without consuming, so the interrupt fills the ring and
// its full-ring path (count, retry) runs too.
void stall(std::uint32_t us) {
    const std::uint64_t until = kairos::port::now_us() + us;
    while (kairos::port::now_us() < until) {
    }
}

void spsc_isr_producer() {
    isr = isr_state{};
    std::uint32_t expect = 0, unused = 0;
    bool ordered = true;
    ktarget::periodic_irq_start(period_us, isr_push_spsc);
    for (unsigned round = 0; ordered && expect < isr_items; ++round) {
        if (round % 256 == 255) stall(period_us * 24);  // > 16 slots' worth of pushes
        ordered = drain_checked(spsc_q, expect, unused);
    }
    ktarget::periodic_irq_stop();
    KT_CHECK(ordered);
    KT_CHECK(isr.full > 0);  // the full path was exercised
    KT_CHECK_EQ(expect, isr_items);  // everything arrived
    KT_CHECK(spsc_q.empty());        // and nothing more
}

void mpsc_isr_and_thread_producers() {
    isr = isr_state{};
    std::uint32_t expect_isr = 0, expect_thread = 0, thread_next = 0, thread_full = 0;
    bool ordered = true;
    ktarget::periodic_irq_start(period_us, isr_push_mpsc);
    for (unsigned round = 0; ordered && expect_isr < isr_items; ++round) {
        // Push our own (sometimes more than fit), then drain: the ring
        // fills from both sides.
        if (round % 256 == 255) stall(period_us * 24);
        const int burst = round % 16 == 0 ? 20 : 3;
        for (int k = 0; k < burst; ++k) {
            if (mpsc_q.try_push(thread_next | tag_thread)) {
                ++thread_next;
            } else {
                ++thread_full;
            }
        }
        ordered = drain_checked(mpsc_q, expect_isr, expect_thread);
    }
    ktarget::periodic_irq_stop();
    ordered = ordered && drain_checked(mpsc_q, expect_isr, expect_thread);
    KT_CHECK(ordered);
    KT_CHECK_EQ(expect_isr, isr_items);
    KT_CHECK_EQ(expect_thread, thread_next);
    KT_CHECK(thread_next > isr_items);  // the thread really produced alongside
    KT_CHECK(isr.full > 0 && thread_full > 0);  // both saw a full ring
    KT_CHECK(mpsc_q.empty());
    ktarget::print("  mpsc: isr items ");
    ktarget::print_u64(isr_items);
    ktarget::print(", thread items ");
    ktarget::print_u64(thread_next);
    ktarget::print(", full (isr/thread) ");
    ktarget::print_u64(isr.full);
    ktarget::print("/");
    ktarget::print_u64(thread_full);
    ktarget::print("\n");
}

}  // namespace

int main() {
    static const ktarget::test_case cases[] = {
        {"spsc<1,u8>", all<spsc<1, std::uint8_t>>},
        {"spsc<8,u8>", all<spsc<8, std::uint8_t>>},
        {"spsc<16,u16,wrap>", all<spsc<16, std::uint16_t, 0xFFF0u>>},
        {"spsc<64,u32,wrap>", all<spsc<64, std::uint32_t, 0xFFFFFFC0u>>},
        {"mpsc<2,u32>", all<mpsc<2, std::uint32_t>>},
        {"mpsc<8,u32,wrap>", all<mpsc<8, std::uint32_t, 0xFFFFFFF8u>>},
        {"mpsc<64,u32,wrap>", all<mpsc<64, std::uint32_t, 0xFFFFFFC3u>>},
        {"spsc_isr_producer", spsc_isr_producer},
        {"mpsc_isr_and_thread_producers", mpsc_isr_and_thread_producers},
    };
    return ktarget::run(cases);
}

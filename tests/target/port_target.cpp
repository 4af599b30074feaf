// SPDX-License-Identifier: MIT
// The port's primitives on the target core: interrupt masking nests and
// restores (never re-enables unconditionally), in_isr() tells thread from
// interrupt, now_us() is monotonic across timer wraps, and the atomic
// read-modify-writes (library calls on ARMv6-M and lx106) are correct and
// atomic against an interrupt doing the same.
#include <kairos/port.hpp>

#include <atomic>
#include <cstdint>

#include "runner.hpp"

namespace {

namespace port = kairos::port;

void irq_nesting() {
    const port::irq_state outer = port::irq_disable();  // thread: was enabled
    const port::irq_state inner = port::irq_disable();  // already masked
    KT_CHECK(outer != inner);
    port::irq_restore(inner);  // must stay masked
    const port::irq_state again = port::irq_disable();
    KT_CHECK_EQ(again, inner);
    port::irq_restore(again);
    port::irq_restore(outer);
    const port::irq_state after = port::irq_disable();
    KT_CHECK_EQ(after, outer);  // unmasked again after the outermost restore
    port::irq_restore(after);
}

volatile bool isr_saw_isr = false;
volatile std::uint32_t ticks = 0;
void tick_in_isr() {
    isr_saw_isr = port::in_isr();
    ticks = ticks + 1;
}

void wait_ticks(std::uint32_t n) {
    const std::uint32_t until = ticks + n;
    while (ticks < until) {
    }
}

void isr_detection() {
    KT_CHECK(!port::in_isr());
    ktarget::periodic_irq_start(100, tick_in_isr);
    wait_ticks(3);
    ktarget::periodic_irq_stop();
    KT_CHECK(isr_saw_isr);
    KT_CHECK(!port::in_isr());
}

void time_monotonic() {
    ktarget::periodic_irq_start(50, tick_in_isr);  // many wraps of the extension
    const std::uint64_t t0 = port::now_us();
    std::uint64_t prev = t0;
    bool monotonic = true;
    const std::uint32_t until = ticks + 20;
    while (ticks < until) {
        const std::uint64_t t = port::now_us();
        monotonic = monotonic && t >= prev;
        prev = t;
    }
    ktarget::periodic_irq_stop();
    KT_CHECK(monotonic);
    // 20 periods of 50 us passed, give or take one period.
    KT_CHECK(prev - t0 >= 19 * 50 && prev - t0 <= 21 * 50);
}

template <class T>
void rmw_sequence() {
    std::atomic<T> a{T{5}};
    KT_CHECK_EQ(a.fetch_add(T{3}, std::memory_order_relaxed), T{5});  // test: order irrelevant
    KT_CHECK_EQ(a.fetch_sub(T{1}, std::memory_order_relaxed), T{8});
    KT_CHECK_EQ(a.fetch_or(T{0x10}, std::memory_order_relaxed), T{7});
    KT_CHECK_EQ(a.fetch_and(T{0x13}, std::memory_order_relaxed), T{0x17});
    KT_CHECK_EQ(a.fetch_xor(T{0x1}, std::memory_order_relaxed), T{0x13});
    KT_CHECK_EQ(a.exchange(T{42}, std::memory_order_relaxed), T{0x12});
    T expected = T{41};
    KT_CHECK(!a.compare_exchange_strong(expected, T{7}, std::memory_order_relaxed));
    KT_CHECK_EQ(expected, T{42});  // a failed CAS reports the current value
    KT_CHECK(a.compare_exchange_strong(expected, T{7}, std::memory_order_relaxed));
    KT_CHECK_EQ(a.load(std::memory_order_relaxed), T{7});
}

void atomics_single() {
    rmw_sequence<std::uint8_t>();
    rmw_sequence<std::uint16_t>();
    rmw_sequence<std::uint32_t>();
    std::atomic<bool> flag{false};
    KT_CHECK(!flag.exchange(true, std::memory_order_relaxed));  // test: order irrelevant
    KT_CHECK(flag.load(std::memory_order_relaxed));
}

std::atomic<std::uint32_t> shared_counter{0};
volatile std::uint32_t isr_adds = 0;
void tick_adds() {
    // relaxed: only atomicity of the increment is under test.
    shared_counter.fetch_add(0x10000u, std::memory_order_relaxed);
    isr_adds = isr_adds + 1;
}

// atomics_vs_isr: the thread increments with fetch_add and CAS while a timer
// interrupt adds to the same word; a non-atomic read-modify-write would lose
// updates when the interrupt lands between its load and store.
void atomics_vs_isr() {
    ktarget::periodic_irq_start(20, tick_adds);
    std::uint32_t thread_adds = 0;
    while (isr_adds < 50) {
        shared_counter.fetch_add(1u, std::memory_order_relaxed);  // see tick_adds
        std::uint32_t v = shared_counter.load(std::memory_order_relaxed);
        while (!shared_counter.compare_exchange_weak(v, v + 1u, std::memory_order_relaxed)) {
        }
        thread_adds += 2;
    }
    ktarget::periodic_irq_stop();
    const std::uint32_t expect = thread_adds + isr_adds * 0x10000u;
    KT_CHECK_EQ(shared_counter.load(std::memory_order_relaxed), expect);
    KT_CHECK(thread_adds > 100);  // the two really interleaved
}

// Two 16-bit atomics sharing one word: where the core has no half-word
// read-modify-write (RV32 with the A extension: a CAS loop on the word), an
// update of one must neither lose a concurrent update of itself nor
// overwrite its neighbour.
struct alignas(4) halves {
    std::atomic<std::uint16_t> lo{0}, hi{0};
};
halves shared_halves;
volatile std::uint32_t isr_half_adds = 0;
void tick_adds_halves() {
    // relaxed: only atomicity of the increments is under test.
    shared_halves.lo.fetch_add(0x100u, std::memory_order_relaxed);
    shared_halves.hi.fetch_add(1u, std::memory_order_relaxed);
    isr_half_adds = isr_half_adds + 1;
}

// atomics_vs_isr_subword: as atomics_vs_isr, on the low half, while the
// interrupt also adds to the high half.
void atomics_vs_isr_subword() {
    ktarget::periodic_irq_start(20, tick_adds_halves);
    std::uint32_t thread_adds = 0;
    while (isr_half_adds < 50) {
        shared_halves.lo.fetch_add(1u, std::memory_order_relaxed);  // see tick_adds_halves
        std::uint16_t v = shared_halves.lo.load(std::memory_order_relaxed);
        while (!shared_halves.lo.compare_exchange_weak(v, static_cast<std::uint16_t>(v + 1u),
                                                       std::memory_order_relaxed)) {
        }
        thread_adds += 2;
    }
    ktarget::periodic_irq_stop();
    const auto expect_lo = static_cast<std::uint16_t>(thread_adds + isr_half_adds * 0x100u);
    KT_CHECK_EQ(shared_halves.lo.load(std::memory_order_relaxed), expect_lo);
    KT_CHECK_EQ(shared_halves.hi.load(std::memory_order_relaxed), static_cast<std::uint16_t>(isr_half_adds));
    KT_CHECK(thread_adds > 100);  // the two really interleaved
}

// runtime_arith: run-time division and 64-bit multiplication on random
// operands (library calls on lx106, which port/xtensa_lx106/arith.cpp
// supplies; on ARM, libgcc's). Checked by the division identity and against
// a shift-and-add multiply, not against the operators themselves.
void runtime_arith() {
    ktest::rng r(0xd1u);
    for (int i = 0; i < 2000; ++i) {
        const volatile std::uint32_t n = r.next32(), d = r.next32() >> (r.next32() & 31u);
        if (d == 0) continue;
        const std::uint32_t q = n / d, m = n % d;
        KT_CHECK(m < d && std::uint64_t{q} * d + m == n);
        const volatile std::int32_t sn = static_cast<std::int32_t>(n), sd = static_cast<std::int32_t>(d);
        const std::int32_t sq = sn / sd, sm = sn % sd;
        KT_CHECK(std::int64_t{sq} * sd + sm == sn);
        KT_CHECK(sm == 0 || (sm < 0) == (sn < 0));  // C++: remainder takes the dividend's sign

        const volatile std::uint64_t a = r.next(), b = r.next() >> (r.next32() & 63u);
        std::uint64_t shift_add = 0;
        for (std::uint64_t x = a, y = b; y != 0; x <<= 1, y >>= 1) {
            if (y & 1) shift_add += x;
        }
        KT_CHECK_EQ(a * b, shift_add);
        if (b != 0) {
            const std::uint64_t q64 = a / b, m64 = a % b;
            KT_CHECK(m64 < b && q64 * b + m64 == a);
        }
    }
}

}  // namespace

int main() {
    static const ktarget::test_case cases[] = {
        {"irq_nesting", irq_nesting},       {"isr_detection", isr_detection},
        {"time_monotonic", time_monotonic}, {"atomics_single", atomics_single},
        {"atomics_vs_isr", atomics_vs_isr}, {"atomics_vs_isr_subword", atomics_vs_isr_subword},
        {"runtime_arith", runtime_arith},
    };
    return ktarget::run(cases);
}

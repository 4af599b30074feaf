// SPDX-License-Identifier: MIT
// Tickless idle (docs/kernel.md, "Tickless idle") under QEMU's instruction
// clock: sleeps across idle wake at their deadline and not later than a
// bound, with the core timer interrupting once per deadline (plus, on
// Cortex-M with SysTick, the end of the period running when the kernel
// went idle and the 24-bit reloads), never every tick; a thread woken from
// an interrupt while the kernel idles (a kairos::ticker callback, which keeps the periodic tick
// only while armed) runs and its own short sleep is on time; the board's
// idle hooks bracket every wait. With KAIROS_TICKLESS off (or a broken
// port) the interrupt counts are those of the 1 ms tick and the checks fail.
// Built again with time slicing (target_idle_timeslice): the slice tick
// runs only while a running thread shares its priority, never while the
// kernel idles.
#include <kairos/board.hpp>
#include <kairos/kernel/thread.hpp>
#include <kairos/port.hpp>
#include <kairos/ticker.hpp>

#include <cstdint>

#if !defined(__XTENSA__) && !defined(__riscv)
#  include "cortex_m.hpp"
#endif

#ifndef KAIROS_SCENARIO_STACK
#  define KAIROS_SCENARIO_STACK 1024
#endif
#include "kernel_scenarios.hpp"
#include "runner.hpp"
#include "target.hpp"

namespace ks = scenarios::kernel;
namespace k = kairos::kernel;

namespace {

// Timer interrupts a sleep of `us` may take beyond the one at its deadline:
// on Cortex-M with SysTick the end of the SysTick period running when the
// kernel went idle, and one per 2^24 cycles of a long sleep; none
// elsewhere, nor on Cortex-M with a board timer (board.hpp), where SysTick
// never runs (SYST_CSR.ENABLE clear once the time base has started).
#if defined(__XTENSA__) || defined(__riscv)
constexpr std::uint32_t extra_per_sleep(std::uint64_t) { return 0; }
#else
std::uint32_t extra_per_sleep(std::uint64_t us) {
    namespace reg = kairos::cortex_m::reg;
    if ((reg::at(reg::syst_csr) & 1u) == 0) return 0;
    const std::uint64_t cycles = us * (kairos::port::cpu_hz() / 1000000u);
    return 1u + static_cast<std::uint32_t>(cycles >> 24);
}
#endif

// The latest a wake may come after its deadline: interrupt entry, the
// handler and the switch (1 ns per instruction under -icount shift=0), and
// the shortest reload the Cortex-M port programs (512 cycles).
constexpr std::uint64_t late_bound_us = 50;

// The most the port's time over a run of sleeps may differ from the
// reference clock's: now_us() truncates to whole microseconds at both ends
// and the two clocks are read a few instructions apart.
constexpr std::uint64_t ref_bound_ns = 5000;

// ref_at[] and port_at[]: the reference clock's and the port's
// time over a scenario's sleeps, read back to back at both ends (the
// reference after the port). has_ref: the board has a reference clock.
bool has_ref;
std::uint64_t ref_at[2], port_at[2];

// mark(i): the port's and the reference's time, end i (0: start, 1: end).
void mark(unsigned i) {
    port_at[i] = kairos::port::now_us();
    has_ref = ktarget::reference_ns(ref_at[i]);
}

// check_reference(what): the port's time from mark(0) to mark(1) is the
// reference clock's within ref_bound_ns; a port that loses or gains time
// across idle (a wait that lasts a timer period longer than programmed,
// a missed wrap) fails here even when its own reads look on time.
void check_reference(const char* what) {
    if (!has_ref) {
        ktarget::print(what);
        ktarget::print(": the board has no reference clock\n");
        return;
    }
    const std::int64_t port_ns = static_cast<std::int64_t>((port_at[1] - port_at[0]) * 1000u);
    const std::int64_t ref_ns = static_cast<std::int64_t>(ref_at[1] - ref_at[0]);
    const std::int64_t diff = port_ns - ref_ns;
    ktarget::print(what);
    ktarget::print(": port ");
    ktarget::print_u64(static_cast<std::uint64_t>(port_ns));
    ktarget::print(" ns, reference ");
    ktarget::print_u64(static_cast<std::uint64_t>(ref_ns));
    ktarget::print(" ns\n");
    KT_CHECK(diff <= static_cast<std::int64_t>(ref_bound_ns) &&
             -diff <= static_cast<std::int64_t>(ref_bound_ns));
}

// Board hooks: strong definitions replace the port's weak ones.
volatile std::uint32_t idle_enters, idle_exits;
volatile std::uint64_t last_idle_deadline;

std::uint64_t wake[100];
std::uint64_t due[100];
std::uint32_t irqs_during;

// sleeps_land_on_time: 100 sleeps of 10 ms to absolute deadlines (each
// sleep_us() to the next multiple of 10 ms from t0): every wake at or after
// its deadline and within late_bound_us of it, so the 100th lands at
// t0 + 1 s + at most late_bound_us: no drift accumulates. The timer
// interrupts number one per sleep plus extra_per_sleep(), not the 1000 of a
// 1 ms tick.
void sleeps_land_on_time() {
    ks::begin();
    ks::spawn(5, [](void*) {
        const std::uint32_t irq0 = kairos::port::timer_interrupts();
        mark(0);
        const std::uint64_t t0 = port_at[0];
        for (unsigned i = 0; i < 100; ++i) {
            due[i] = t0 + (i + 1) * 10000ull;
            k::sleep_us(due[i] - kairos::port::now_us());
            wake[i] = kairos::port::now_us();
        }
        mark(1);
        irqs_during = kairos::port::timer_interrupts() - irq0;
    });
    ks::finish();
    check_reference("sleeps_land_on_time");
    unsigned early = 0, late = 0;
    for (unsigned i = 0; i < 100; ++i) {
        early += wake[i] < due[i] ? 1 : 0;
        late += wake[i] > due[i] + late_bound_us ? 1 : 0;
    }
    KT_CHECK_EQ(early, 0u);
    KT_CHECK_EQ(late, 0u);
    KT_CHECK(wake[99] - due[99] <= late_bound_us);
    KT_CHECK(irqs_during >= 100u);
    KT_CHECK(irqs_during <= 100u * (1u + extra_per_sleep(10000)));
}

// long_sleep_few_interrupts: one sleep of 1 s takes one interrupt (Cortex-M:
// plus the running period's end and the 24-bit reloads) and lands on time;
// the board's idle hooks ran around each wait, the last one given the
// sleep's deadline.
std::uint64_t long_due, long_wake;
void long_sleep_few_interrupts() {
    ks::begin();
    idle_enters = idle_exits = 0;
    ks::spawn(5, [](void*) {
        const std::uint32_t irq0 = kairos::port::timer_interrupts();
        mark(0);
        long_due = port_at[0] + 1000000;
        k::sleep_us(1000000);
        long_wake = kairos::port::now_us();
        mark(1);
        irqs_during = kairos::port::timer_interrupts() - irq0;
    });
    ks::finish();
    check_reference("long_sleep_few_interrupts");
    KT_CHECK(long_wake >= long_due && long_wake <= long_due + late_bound_us);
    KT_CHECK(irqs_during >= 1u);
    KT_CHECK(irqs_during <= 1u + extra_per_sleep(1000000));
    KT_CHECK(idle_enters >= 1u && idle_enters <= 1u + extra_per_sleep(1000000));
    KT_CHECK_EQ(idle_exits, idle_enters);
    // sleep_us() reads the clock after long_due's read: its deadline is
    // that read + 1 s, a few µs of virtual time after long_due at most.
    KT_CHECK(last_idle_deadline >= long_due && last_idle_deadline - long_due <= late_bound_us);
}

// isr_wakes_thread_while_idle: thread a sleeps 500 ms; a one-shot ticker
// armed 50 ms ahead wakes thread b (blocked without a deadline) from the
// tick interrupt while the kernel idles. b runs at once, sleeps 10 ms and
// wakes on time although a long tickless period may have been running (on
// Cortex-M the port cuts it short); a wakes on time. After the ticker
// fired the tick is no longer periodic: a's remaining sleep takes a few
// interrupts, not hundreds.
k::pid b_pid;
kairos::ticker once;
std::uint64_t a_due, a_wake, b_armed, b_woke, b_due, b_wake;
std::uint32_t irqs_after;
void isr_wakes_thread_while_idle() {
    ks::begin();
    b_woke = b_wake = 0;
    b_pid = ks::spawn(4, [](void*) {
        k::sleep();
        b_woke = kairos::port::now_us();
        b_due = b_woke + 10000;
        k::sleep_us(10000);
        b_wake = kairos::port::now_us();
        irqs_after = kairos::port::timer_interrupts();
    });
    ks::spawn(5, [](void*) {
        a_due = kairos::port::now_us() + 500000;
        b_armed = kairos::port::now_us();
        KT_CHECK(once.once_ms(50, [] { (void)k::wakeup(b_pid); }));
        k::sleep_us(500000);
        a_wake = kairos::port::now_us();
        irqs_after = kairos::port::timer_interrupts() - irqs_after;
    });
    ks::finish();
    // The ticker fires at the first tick at or after its due time.
    KT_CHECK(b_woke >= b_armed + 50000 && b_woke <= b_armed + 51000 + late_bound_us);
    KT_CHECK(b_wake >= b_due && b_wake <= b_due + late_bound_us);
    KT_CHECK(a_wake >= a_due && a_wake <= a_due + late_bound_us);
    KT_CHECK(irqs_after <= 2u + extra_per_sleep(500000));
}

// equals_then_idle: two threads of one priority spin for 20 ms (with
// KAIROS_TIME_SLICE_US the slice tick runs meanwhile and they take turns;
// without, the first spins alone),
// then both sleep to one deadline 1 s later: once the kernel idles no
// periodic tick remains, so the sleep takes its deadline's interrupt and at
// most the one tick that came while the second thread still ran, not the
// thousand of a 1 ms tick. The second wakes on time.
std::uint64_t eq_end, eq_due, eq_wake[2];
std::uint32_t eq_irq0, eq_irqs, eq_count[2];
volatile int eq_last;
volatile std::uint32_t eq_turns;
void equals_then_idle() {
    ks::begin();
    eq_end = kairos::port::now_us() + 20000;
    eq_due = eq_end + 1000000;
    eq_last = -1;
    eq_turns = 0;
    eq_count[0] = eq_count[1] = 0;
    for (int i = 0; i < 2; ++i) {
        ks::spawn(5, [](void* a) {
            const int me = static_cast<int>(reinterpret_cast<std::uintptr_t>(a));
            while (kairos::port::now_us() < eq_end) {
                const kairos::port::irq_state s = kairos::port::irq_disable();
                if (eq_last != me) {
                    eq_turns = eq_turns + (eq_last >= 0 ? 1u : 0u);
                    eq_last = me;
                }
                ++eq_count[me];
                kairos::port::irq_restore(s);
            }
            if (me == 0) eq_irq0 = kairos::port::timer_interrupts();
            k::sleep_us(eq_due - kairos::port::now_us());
            eq_wake[me] = kairos::port::now_us();
            if (me == 0) eq_irqs = kairos::port::timer_interrupts() - eq_irq0;
        }, reinterpret_cast<void*>(static_cast<std::uintptr_t>(i)));
    }
    ks::finish();
#if KAIROS_TIME_SLICE_US
    KT_CHECK(eq_turns >= 4u);  // 2 ms slices over 20 ms
    KT_CHECK(eq_count[0] > 0u && eq_count[1] > 0u);
#else
    KT_CHECK_EQ(eq_turns, 0u);  // the first runs until it sleeps, then the
    KT_CHECK_EQ(eq_count[1], 0u);  // second finds the time up
#endif
    KT_CHECK(eq_wake[1] >= eq_due && eq_wake[1] <= eq_due + late_bound_us);
    KT_CHECK(eq_irqs >= 1u);
    KT_CHECK(eq_irqs <= 2u + extra_per_sleep(1000000));
}

}  // namespace

extern "C" void kairos_idle_enter(std::uint64_t deadline_us) noexcept {
    idle_enters = idle_enters + 1;
    last_idle_deadline = deadline_us;
}
extern "C" void kairos_idle_exit() noexcept { idle_exits = idle_exits + 1; }

int main() {
    static const ktarget::test_case cases[] = {
        {"sleeps_land_on_time", sleeps_land_on_time},
        {"long_sleep_few_interrupts", long_sleep_few_interrupts},
        {"isr_wakes_thread_while_idle", isr_wakes_thread_while_idle},
        {"equals_then_idle", equals_then_idle},
    };
    return ktarget::run(cases);
}

// SPDX-License-Identifier: MIT
// seed_stress.hpp: the seed's 100 000-task stress (esp8266/Arduino PR #6139,
// /work/shared/reference/seeds/000_*) on the target core, in virtual time.
//
// A 1 ms kairos::ticker (on SysTick on Cortex-M, on the CCOMPARE0 tick on
// lx106, on the machine timer on RV32) pushes `chunk` messages per tick
// into a kairos::deferred of 32 slots (SCHEDULED_FN_MAX_COUNT), exactly as the sketch's tickerCallback: `chunk`
// attempts per tick, a refused push is counted and the same message retried
// at the next attempt. The main loop calls run(); every function runs the
// seed's checkMessage (bad id, value in reverse, values skipped, and at the
// end bad last message). Unlike the sketch's busy loop(), the loop sleeps
// (WFI / waiti) whenever the queue is empty, so QEMU with sleep=off skips
// the idle time: the virtual time to completion is the same (the ticker
// sets it), the wall time is far shorter, and the instructions executed are
// the work itself (interrupt + schedule + run + check), not polling.
//
// Time: run_seed() reads the board timer (SysTick / CCOUNT) around the run;
// under -icount shift=0 one instruction is 1 ns of virtual time, so timer
// ticks convert to virtual ns and to instructions. Busy instructions = the
// whole span minus the time spent asleep.
#pragma once

#include <kairos/deferred.hpp>
#include <kairos/port.hpp>

#include <cstdint>

#include "seed_sketch.hpp"
#include "target.hpp"

#include <kairos/ticker.hpp>
#if defined(__arm__)
#  include "cortex_m.hpp"
#elif defined(__riscv)
#  include "riscv.hpp"
#else
#  include "lx106.hpp"
#endif

#ifndef KAIROS_QEMU_TIMER_HZ
#  error "KAIROS_QEMU_TIMER_HZ: rate of the board timer in the QEMU model (cmake/qemu-test.cmake)"
#endif

namespace seed {

#if defined(__arm__)
namespace board = kairos::cortex_m;
#elif defined(__riscv)
namespace board = kairos::riscv;
#else
namespace board = kairos::lx106;
#endif

// KSEED_WAKE_IN_SLEEP: 1 where the sleep instruction takes the timer
// interrupt itself before it returns (lx106 waiti), so the wake-up time is
// stamped by the tick hook; 0 where the handler runs only once unmasked
// (Arm and RISC-V wfi), so the time read after the wfi is the wake-up.
#if defined(__XTENSA__)
#  define KSEED_WAKE_IN_SLEEP 1
#else
#  define KSEED_WAKE_IN_SLEEP 0
#endif

// The ESP8266 core's SCHEDULED_FN_MAX_COUNT; one recurrent entry (unused).
inline kairos::deferred<32, 1> sched;

// result is what one run reports.
struct result {
    std::uint32_t chunk = 0, messages = 0;
    std::uint32_t failed = 0;      // refused push attempts (queue full)
    std::uint32_t lost = 0;        // values skipped, summed
    std::uint32_t reordered = 0;   // values in reverse
    std::uint32_t bad_id = 0;
    bool bad_last = false;         // nextVal != MSGCNT - 1 at the end
    bool completed = false;        // the last message ran before the time limit
    std::uint32_t ticks = 0;       // timer interrupts taken until completion
    std::uint64_t virtual_ns = 0;  // attach to completion (1 instruction = 1 ns)
    std::uint64_t busy_insns = 0;  // virtual_ns minus the time asleep
    std::uint32_t sleeps = 0;      // WFI / waiti executed
    std::uint32_t overflows = 0;   // sched.overflows() delta
};

// The sketch's state (seed_sketch.hpp) and, on lx106, the wake-up time.
struct state : seed_sketch::state {
    volatile std::uint64_t wake = 0;  // KSEED_WAKE_IN_SLEEP: board timer at the tick's entry
};
inline state st;

// stop_timer() detaches the 1 ms interrupt. Context: task.
inline kairos::ticker seed_ticker;
inline void stop_timer() noexcept { seed_ticker.detach(); }

// ticker_callback() is the sketch's tickerCallback. Context: timer interrupt.
inline void ticker_callback() noexcept {
    seed_sketch::produce(st, [](std::uint32_t msg) {
        return sched.schedule([msg] {
            if (!seed_sketch::check(st, msg)) stop_timer();
        });
    });
}

// sleep_mask() / sleep_unmask() mask interrupts for a check-then-sleep.
// Arm: PRIMASK, not kairos' mask: WFI wakes for an interrupt PRIMASK masks
// but not for one BASEPRI masks (kairos' mask on ARMv7-M/ARMv8-M mainline).
#if defined(__arm__)
inline std::uint32_t sleep_mask() noexcept {
    std::uint32_t s;
    asm volatile("mrs %0, primask\n\tcpsid i" : "=r"(s)::"memory");
    return s;
}
inline void sleep_unmask(std::uint32_t s) noexcept { asm volatile("msr primask, %0\n\tisb" ::"r"(s) : "memory"); }
#else
inline kairos::port::irq_state sleep_mask() noexcept { return kairos::port::irq_disable(); }
inline void sleep_unmask(kairos::port::irq_state s) noexcept { kairos::port::irq_restore(s); }
#endif

// sleep_if_idle(sleeps) waits for the next interrupt if nothing is queued,
// counting the sleep in sleeps, and returns the timer ticks spent asleep. Checking and sleeping happen with
// interrupts masked, so a tick between them cannot be slept through (WFI /
// waiti wake on a pending interrupt).
inline std::uint64_t sleep_if_idle(std::uint32_t& sleeps) noexcept {
    const auto s = sleep_mask();
    std::uint64_t slept = 0;
    if (sched.pending() == 0 && st.pending > 0) {
        ++sleeps;
        const std::uint64_t t0 = board::cycles();
#if !KSEED_WAKE_IN_SLEEP
        // The timer handler runs only after irq_restore(): t1 is the wake-up.
#  if defined(__arm__)
        asm volatile("dsb\n\twfi" ::: "memory");
#  else
        asm volatile("wfi" ::: "memory");  // mie.MTIE wakes it with mstatus.MIE clear
#  endif
        slept = board::cycles() - t0;
#else
        // waiti 0 takes the level-1 timer interrupt before it returns: the
        // wake-up is stamped by the port's tick hook, which runs before the
        // tickers. The vector's register save before it counts as asleep
        // (the plugin count in bench/target/collect is exact).
        asm volatile("waiti 0" ::: "memory");
        slept = st.wake > t0 ? st.wake - t0 : 0;
#endif
    }
    sleep_unmask(s);
    return slept;
}

// run_seed(chunk, count) runs the workload once and returns its counters.
// It gives up (completed = false) after twice the ticks the capacity bound
// needs, so a lost message fails instead of hanging. Context: main.
inline result run_seed(std::uint32_t chunk, std::uint32_t count) noexcept {
    st = state{};
    st.count = count;
    st.chunk = chunk;
    const std::uint32_t per_tick = chunk < 32 ? chunk : 32;
    st.tick_limit = 2 * (count / per_tick) + 10;
    const std::uint32_t overflows0 = sched.overflows();
    std::uint64_t asleep = 0;
    std::uint32_t sleeps = 0;

#if KSEED_WAKE_IN_SLEEP
    board::set_tick_hook([] { st.wake = board::cycles(); });
#endif
    const std::uint64_t t0 = board::cycles();
    if (!seed_ticker.attach_ms(1, &ticker_callback)) kairos_port_panic("seed: attach_ms", __FILE__, __LINE__);
    while (st.pending > 0 && st.ticks <= st.tick_limit) {
        sched.run();
        asleep += sleep_if_idle(sleeps);
    }
    const std::uint64_t t1 = board::cycles();
    stop_timer();  // already detached by the last message, unless it never came
#if KSEED_WAKE_IN_SLEEP
    board::set_tick_hook(nullptr);
#endif
    sched.run();   // nothing should be left; run it so the next round starts empty

    result r;
    r.chunk = chunk;
    r.messages = count;
    r.failed = st.failed;
    r.lost = st.lost;
    r.reordered = st.reordered;
    r.bad_id = st.bad_id;
    r.completed = st.pending == 0;
    r.bad_last = st.next_val != count - 1;
    r.ticks = st.ticks;
    // ticks x 10^9 / rate: microbit ticks are 62.5 ns. No overflow below
    // 584 years of virtual time at 1 GHz.
    r.virtual_ns = (t1 - t0) * 1000000000ull / KAIROS_QEMU_TIMER_HZ;
    r.busy_insns = (t1 - t0 - asleep) * 1000000000ull / KAIROS_QEMU_TIMER_HZ;
    r.overflows = sched.overflows() - overflows0;
    r.sleeps = sleeps;
    return r;
}

// expected_failed(chunk, count): refused pushes when the loop drains the
// queue between ticks: every tick that fills all 32 slots with messages
// still to come refuses its remaining chunk - 32 attempts.
inline std::uint32_t expected_failed(std::uint32_t chunk, std::uint32_t count) noexcept {
    if (chunk <= 32) return 0;
    return ((count + 31) / 32 - 1) * (chunk - 32);
}

// bound_ticks(chunk, count): the ticks the ticker (or the capacity) needs.
inline std::uint32_t bound_ticks(std::uint32_t chunk, std::uint32_t count) noexcept {
    const std::uint32_t per_tick = chunk < 32 ? chunk : 32;
    return (count + per_tick - 1) / per_tick;
}

// failure(r) returns which of the seed's pass criteria r misses first, or
// nullptr if it meets them all: completed; no lost, reordered or bad-id
// message and the right last one; refused pushes exactly those a full
// queue must refuse (expected_failed), each counted by overflows(); the
// virtual time at least the ticker/capacity bound (the first tick comes
// 1 ms after attach, the last message runs within its tick's millisecond)
// and at most 5 % (<= 32 per tick) or 10 % (above) over it; the busy time
// inside the span.
inline const char* failure(const result& r) noexcept {
    const std::uint64_t bound_ns = std::uint64_t{bound_ticks(r.chunk, r.messages)} * 1000000u;
    const std::uint64_t slack = r.chunk <= 32 ? bound_ns / 20 : bound_ns / 10;
    if (!r.completed) return "not completed";
    if (r.lost != 0 || r.reordered != 0 || r.bad_id != 0 || r.bad_last) return "bad messages";
    if (r.failed != expected_failed(r.chunk, r.messages)) return "refused pushes != expected";
    if (r.overflows != r.failed) return "overflows() != refused pushes";
    if (r.virtual_ns < bound_ns || r.virtual_ns > bound_ns + slack) return "virtual time out of bounds";
    if (r.busy_insns == 0 || r.busy_insns >= r.virtual_ns) return "busy time outside the span";
    return nullptr;
}

// print_result(r) prints one line:
//   seed chunk <c> n <count> virtual_us <t> bound_ms <b> failed <f> lost <l>
//   reordered <r> bad_id <i> bad_last <0|1> busy_insns <b> sleeps <s>
inline void print_result(const result& r) noexcept {
    auto field = [](const char* name, std::uint64_t v) {
        ktarget::print(name);
        ktarget::print_u64(v);
    };
    field("seed chunk ", r.chunk);
    field(" n ", r.messages);
    field(" virtual_us ", r.virtual_ns / 1000);
    field(" bound_ms ", bound_ticks(r.chunk, r.messages));
    field(" failed ", r.failed);
    field(" lost ", r.lost);
    field(" reordered ", r.reordered);
    field(" bad_id ", r.bad_id);
    field(" bad_last ", r.bad_last ? 1 : 0);
    field(" busy_insns ", r.busy_insns);
    field(" sleeps ", r.sleeps);
    ktarget::print("\n");
}

}  // namespace seed

// SPDX-License-Identifier: MIT
// kairos::ticker on the MCU ports: tickers are multiplexed on the port's
// periodic tick interrupt (Cortex-M: SysTick, the 1 ms time base; lx106:
// CCOMPARE0, 1 ms), so their callbacks run in interrupt context, like the
// host's run in a signal handler. Resolution is one tick period (1 ms by
// default): a ticker due between two ticks fires at the next one, and
// expirations a period shorter than that cannot deliver are counted in
// overruns(), never replayed in a burst.
//
// The port's kairos_tick() calls kairos_mcu_ticker_tick() through a weak
// declaration (include/kairos/board.hpp), so this file is linked only by
// programs that use a ticker; arming calls the port's
// kairos_mcu_tick_ensure() (start the tick if it does not run yet, and keep
// it periodic: tickless idle stops only while no ticker is armed).
#include <kairos/board.hpp>
#include <kairos/port.hpp>
#include <kairos/ticker.hpp>
#include <kairos/time.hpp>

#include <cstdint>

namespace kairos {

namespace {

// At most this many armed tickers at once (arm() returns false beyond it).
#ifndef KAIROS_MCU_MAX_TICKERS
#  define KAIROS_MCU_MAX_TICKERS 8
#endif

struct armed {
    ticker* owner;          // nullptr: slot free
    std::uint64_t due_us;   // next expiration, port::now_us() time
    std::uint64_t period_us;  // 0: one-shot
};
// Written in task context with interrupts masked, read by the tick
// handler: masking is the whole synchronisation on a single core.
armed slots[KAIROS_MCU_MAX_TICKERS];

}  // namespace

struct ticker_dispatch {
    // tick() fires every due ticker and returns true while one is armed.
    // Context: the port's tick interrupt.
    static bool tick() noexcept {
        const std::uint64_t now = port::now_us();
        bool any = false;
        for (armed& a : slots) {
            ticker* t = a.owner;
            if (t == nullptr) continue;
            any = true;
            if (now < a.due_us) continue;
            if (a.period_us != 0) {
                std::uint64_t skipped = 0;  // the periods missed, in µs
                const std::uint64_t late = whole_periods(now - a.due_us, a.period_us, skipped);
                a.due_us += skipped + a.period_us;
                // relaxed: a statistic.
                t->overruns_.fetch_add(static_cast<std::uint32_t>(late), std::memory_order_relaxed);
            } else {
                a.owner = nullptr;
                t->slot_ = -1;
                // release: pairs with active()'s acquire.
                t->active_.store(false, std::memory_order_release);
            }
            t->fire();
        }
        return any;
    }
};

ticker::~ticker() { detach(); }

bool ticker::arm(std::uint64_t us, bool periodic, callback&& cb) noexcept {
    if (us == 0) return false;
    kairos_mcu_tick_ensure();
    const std::uint64_t now = port::now_us();
    const port::irq_state s = port::irq_disable();
    if (slot_ < 0) {
        for (int i = 0; i < KAIROS_MCU_MAX_TICKERS; ++i) {
            if (slots[i].owner == nullptr) {
                slot_ = i;
                break;
            }
        }
    }
    if (slot_ < 0) {
        port::irq_restore(s);
        return false;
    }
    cb_ = std::move(cb);
    periodic_ = periodic;
    slots[slot_] = armed{this, now + us, periodic ? us : 0};
    // release: pairs with active()'s acquire.
    active_.store(true, std::memory_order_release);
    port::irq_restore(s);
    return true;
}

void ticker::detach() noexcept {
    const port::irq_state s = port::irq_disable();
    if (slot_ >= 0) {
        slots[slot_].owner = nullptr;
        slot_ = -1;
    }
    // release: pairs with active()'s acquire.
    active_.store(false, std::memory_order_release);
    port::irq_restore(s);
}

void ticker::fire() noexcept {
    if (cb_) cb_();
}

// No signals on a microcontroller.
int ticker::signal_number() noexcept { return -1; }

}  // namespace kairos

// Called by the port's kairos_tick() when this file is linked (weak there).
extern "C" bool kairos_mcu_ticker_tick() noexcept { return kairos::ticker_dispatch::tick(); }

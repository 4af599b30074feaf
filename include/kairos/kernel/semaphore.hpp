// SPDX-License-Identifier: MIT
// kairos/kernel/semaphore.hpp: a counting semaphore (FreeRTOS counting
// semaphore, Zephyr k_sem, RIOT sema).
#pragma once

#include <kairos/kernel/thread.hpp>

#include <cstdint>

namespace kairos::kernel {

namespace impl {
struct tcb;
}

// semaphore counts units from 0 to a maximum. give() adds one, or hands it
// straight to the first waiting thread (the count stays 0, so a thread
// arriving in between cannot take the unit first); take() removes one,
// blocking while there is none. Waiters queue in priority order, FIFO
// among equal priorities, and a waiter whose priority changes moves in the
// queue. No priority inheritance: a semaphore has no owner (use a mutex
// for mutual exclusion). Not movable (waiters refer to it). All state is
// touched with interrupts masked.
class semaphore {
public:
    static constexpr std::uint32_t max_limit = 0xFFFFFFFFu;

    // semaphore(initial, max) starts with `initial` units and never holds
    // more than `max` (max 1: a binary semaphore). Precondition: 1 <= max
    // and initial <= max: an assertion at run time (without assertions the
    // semaphore starts empty), a compile error in a constant expression.
    constexpr explicit semaphore(std::uint32_t initial = 0, std::uint32_t max = max_limit) noexcept
        : count_(initial <= max && max >= 1 ? initial : bad_config()), max_(max) {}
    semaphore(const semaphore&) = delete;
    semaphore& operator=(const semaphore&) = delete;

    // give() releases one unit: to the first waiter (which becomes runnable,
    // and runs at once if it beats the caller), else into the count. Returns
    // false, changing nothing, if the count is already at max (counted in
    // overflows()). Context: any (the ISR-side "give"; from an isr it only
    // requests a switch).
    bool give() noexcept;

    // take() removes one unit, blocking until one is given. Context: thread,
    // interrupts enabled (assertion).
    void take() noexcept;

    // try_take() removes one unit if the count is not 0. Context: any.
    [[nodiscard]] bool try_take() noexcept;

    // take_for(us) is take() giving up after us microseconds of
    // port::now_us(): true with a unit, false at the deadline (nothing
    // taken). take_for(0) is try_take(); us >= timeout_forever (UINT64_MAX
    // included) is take(). Context: thread, interrupts enabled (assertion).
    [[nodiscard]] bool take_for(std::uint64_t us) noexcept;
    // take_until(deadline_us) is take_for(timeout_until(deadline_us)).
    [[nodiscard]] bool take_until(std::uint64_t deadline_us) noexcept {
        return take_for(timeout_until(deadline_us));
    }

    // count() is the number of units (0 while threads wait), max_count()
    // the maximum. Context: any.
    std::uint32_t count() const noexcept { return count_; }
    std::uint32_t max_count() const noexcept { return max_; }
    // overflows() counts give() calls refused at max. Context: any.
    std::uint32_t overflows() const noexcept { return overflows_; }

private:
    static std::uint32_t bad_config() noexcept;  // not constexpr: a bad constant fails to compile

    std::uint32_t count_;
    std::uint32_t max_;
    std::uint32_t overflows_ = 0;
    impl::tcb* waiters_ = nullptr;  // priority order, linked through the threads' slots
};

}  // namespace kairos::kernel

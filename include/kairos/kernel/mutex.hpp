// SPDX-License-Identifier: MIT
// kairos/kernel/mutex.hpp: a one-word mutex with sorted waiters, direct
// handoff and optional priority inheritance.
#pragma once

#include <kairos/kernel/thread.hpp>

#include <cstdint>

namespace kairos::kernel {

// mutex is one 32-bit word: the owner's pid, the pid of the first waiter
// and the protocol bit. Waiters queue in priority order, FIFO among equal
// priorities, linked through their thread slots. unlock() hands the mutex
// directly to the first waiter (it never becomes free in between, so a
// third thread cannot barge in).
//
// protocol::inherit adds priority inheritance: while a thread waits, the
// owner runs at least at the waiter's priority, transitively along a chain
// of owners blocked on further inheritance mutexes. The owner field follows
// a contended handoff (the new owner inherits from the waiters still
// queued) and a thread holding several such mutexes keeps the highest
// priority any of them still demands when it releases one. Such a mutex
// must be unlocked by its owner. A plain mutex (protocol::none) may be
// unlocked by any thread or an isr (RIOT semantics: usable as a signal).
// Either kind is owned from lock() to unlock(), whoever unlocks it, and a
// thread that exits while it owns one halts the program (kernel::exit()).
//
// All state lives in the word and in thread slots; the object is not
// movable (waiters refer to it).
class mutex {
public:
    enum class protocol : std::uint8_t { none, inherit };

    constexpr mutex() noexcept = default;
    constexpr explicit mutex(protocol p) noexcept : word_(p == protocol::inherit ? pi_bit : 0) {}
    mutex(const mutex&) = delete;
    mutex& operator=(const mutex&) = delete;

    // lock() takes the mutex, blocking while another thread owns it. An
    // inheritance mutex already owned by the caller is an assertion (self
    // deadlock); a plain one blocks until someone unlocks it. Context:
    // thread, interrupts enabled.
    void lock() noexcept;

    // try_lock() takes the mutex if it is free. Context: thread.
    [[nodiscard]] bool try_lock() noexcept;

    // lock_for(us) is lock() that gives up after us microseconds of
    // port::now_us(): true when the caller got the mutex, false at the
    // deadline (it then holds nothing and stops lending its priority to
    // the owner, along a chain of inheritance owners too). lock_for(0) is
    // try_lock(); lock_for(us >= timeout_forever), no_timeout included, is
    // lock(). Context: thread, interrupts enabled.
    [[nodiscard]] bool lock_for(std::uint64_t us) noexcept;
    // lock_until(deadline_us) is lock_for(timeout_until(deadline_us)): false
    // at the instant deadline_us (deadline_forever: lock()).
    [[nodiscard]] bool lock_until(std::uint64_t deadline_us) noexcept {
        return lock_for(timeout_until(deadline_us));
    }
    static constexpr std::uint64_t no_timeout = ~std::uint64_t{0};

    // unlock() releases the mutex, or hands it to the first waiter and
    // switches if that waiter (or, after an inheritance handoff, any ready
    // thread) has a higher priority than the caller now has.
    // Precondition: locked (assertion); for protocol::inherit, the caller
    // is the owner. Context: thread; isr too for protocol::none.
    void unlock() noexcept;

    // owner() returns the owner's pid, no_pid if unlocked. Context: any.
    pid owner() const noexcept { return static_cast<pid>(word_ & pid_mask); }

    // word() exposes the raw word (tests, diagnostics).
    std::uint32_t word() const noexcept { return word_; }

    static constexpr std::uint32_t pid_mask = 0x7FFFu;
    static constexpr std::uint32_t pi_bit = 0x8000u;
    static constexpr unsigned waiter_shift = 16;

private:
    friend struct mutex_access;
    std::uint32_t word_ = 0;  // owner pid | pi_bit | first waiter pid << 16; under irq mask
};
static_assert(sizeof(mutex) == 4, "mutex is one 32-bit word");

}  // namespace kairos::kernel

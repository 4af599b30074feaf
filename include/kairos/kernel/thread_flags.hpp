// SPDX-License-Identifier: MIT
// kairos/kernel/thread_flags.hpp: 32 event flags per thread (RIOT
// core/thread_flags). Any context sets them; the owning thread waits.
#pragma once

#include <kairos/kernel/thread.hpp>

#include <cstdint>

namespace kairos::kernel {

using flags_t = std::uint32_t;

// flags_set(p, f) ORs f into p's flags and wakes p if that satisfies its
// wait. Returns 0 or err_bad_pid. From an isr it only requests a switch.
// Context: any.
int flags_set(pid p, flags_t f) noexcept;

// flags_clear(f) clears f in the running thread's flags and returns which
// of them were set. Context: thread.
flags_t flags_clear(flags_t f) noexcept;

// flags_wait_any(mask) blocks until any flag in mask is set, clears all
// set flags in mask and returns them. Context: thread.
flags_t flags_wait_any(flags_t mask) noexcept;

// flags_wait_all(mask) blocks until every flag in mask is set, clears them
// and returns mask. Context: thread.
flags_t flags_wait_all(flags_t mask) noexcept;

// flags_wait_one(mask) blocks until any flag in mask is set, clears only
// the lowest-numbered one and returns it. Context: thread.
flags_t flags_wait_one(flags_t mask) noexcept;

// The waits with a deadline (thread.hpp): _for(mask, us) gives up after us
// microseconds of port::now_us(), _until(mask, d) at the instant d
// (_for(mask, timeout_until(d))). They return what the plain wait returns,
// never 0 as mask is not 0, or 0 at the deadline with nothing cleared. us
// 0 only tries; us >= timeout_forever and deadline_forever do not time
// out. Context: thread, interrupts enabled (assertion) unless us is 0.
flags_t flags_wait_any_for(flags_t mask, std::uint64_t us) noexcept;
flags_t flags_wait_all_for(flags_t mask, std::uint64_t us) noexcept;
flags_t flags_wait_one_for(flags_t mask, std::uint64_t us) noexcept;
inline flags_t flags_wait_any_until(flags_t mask, std::uint64_t deadline_us) noexcept {
    return flags_wait_any_for(mask, timeout_until(deadline_us));
}
inline flags_t flags_wait_all_until(flags_t mask, std::uint64_t deadline_us) noexcept {
    return flags_wait_all_for(mask, timeout_until(deadline_us));
}
inline flags_t flags_wait_one_until(flags_t mask, std::uint64_t deadline_us) noexcept {
    return flags_wait_one_for(mask, timeout_until(deadline_us));
}

// flags_get(p) returns p's current flags (0 for a bad pid). Context: any.
flags_t flags_get(pid p) noexcept;

}  // namespace kairos::kernel

// SPDX-License-Identifier: MIT
// Round-robin time slicing among threads of equal priority
// (KAIROS_TIME_SLICE_US, docs/kernel.md "Time slicing"): the port's tick
// calls kairos_sched_tick(), which rotates the running thread's level when
// its slice is used up. Compiled to nothing when the option is 0.
#include "kernel_impl.hpp"

#if KAIROS_TIME_SLICE_US

namespace kairos::kernel::impl {

tcb* slice_owner = nullptr;

// slice_tick_start() (kernel_impl.hpp, slice_shared()). Out of line: the
// switch only tests the flag. Reached from interrupts (a wake-up's
// make_ready()), so placed like kairos_sched_tick().
KAIROS_ISR_FN void slice_tick_start() noexcept {
    kairos_slice_ticking = true;
    if (kairos_slice_tick_start != nullptr) kairos_slice_tick_start();
}

namespace {
std::uint64_t slice_end = 0;  // port::now_us() at which slice_owner's slice is used up
}  // namespace

}  // namespace kairos::kernel::impl

bool kairos_slice_ticking = false;

using namespace kairos::kernel::impl;

// kairos_sched_tick() (kairos/detail/time_slice_hook.hpp). A thread alone
// at its level, or not runnable (its switch still pending), has nothing to
// share and takes no slice, so a thread of a lower level that it preempted
// keeps the slice it had. The first tick that sees a thread sharing its
// level starts its slice; the first tick at or after the slice's end
// rotates the level, if that thread still heads it (a rotation whose switch
// is pending is not repeated), and starts the slice of the thread it
// rotated to. True while the running thread shares its level: the next
// tick checks again. Masked: interrupts above the tick's priority change
// the run queue too.
extern "C" KAIROS_ISR_FN bool kairos_sched_tick() noexcept {
    irq_guard g;
    tcb* const c = current;
    // The boot context and the kernel's idle context are stopped: in no level.
    if (!started || c->st != kairos::kernel::thread_state::pending || c->next == c) return false;
    const std::uint64_t now = kairos::port::now_us();
    if (c == slice_owner) {
        if (now < slice_end || rq.level(c->prio).front() != c) return true;
        rq.rotate(c->prio);
        kairos::port::request_switch();
    }
    // A fresh slice from now: c's first, or after the rotation the new
    // head's, which runs next (or, if a higher thread runs first, keeps
    // its slice as a preempted thread does).
    slice_owner = static_cast<tcb*>(rq.level(c->prio).front());
    slice_end = now + kairos::kernel::time_slice_us;
    return true;
}

#endif

// SPDX-License-Identifier: MIT
// condvar: sorted waiters (wait_list.cpp); the mutex is re-taken with
// mutex::lock(), so inheritance and the mutex's own waiter order apply.
#include <kairos/kernel/condvar.hpp>

#include "kernel_impl.hpp"

namespace kairos::kernel {

using namespace impl;

void condvar::wait(mutex& m) noexcept { (void)wait_for(m, timeout_forever); }

bool condvar::wait_for(mutex& m, std::uint64_t us) noexcept {
    KAIROS_ASSERT(!port::in_isr());
    const port::irq_state s = port::irq_disable();
    assert_can_block(s);
    KAIROS_ASSERT(m.owner() == current->id);  // wait() needs the caller's own mutex
    // Both under this one mask: the mutex goes to its next owner (whose
    // switch waits for the unmask) and the caller is queued here before any
    // signal can come.
    m.unlock();
    const bool signalled = wait_masked(waiters_, s, us);  // until a signal or the deadline
    m.lock();
    return signalled;
}

bool condvar::signal() noexcept {
    irq_guard g;
    return wait_wake(waiters_) != nullptr;
}

unsigned condvar::broadcast() noexcept {
    irq_guard g;
    unsigned n = 0;
    while (wait_wake(waiters_) != nullptr) ++n;
    return n;
}

}  // namespace kairos::kernel

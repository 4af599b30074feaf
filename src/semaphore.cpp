// SPDX-License-Identifier: MIT
// semaphore: a count with sorted waiters and direct hand-off (wait_list.cpp).
#include <kairos/kernel/semaphore.hpp>

#include "kernel_impl.hpp"

namespace kairos::kernel {

using namespace impl;

std::uint32_t semaphore::bad_config() noexcept {
    KAIROS_ASSERT(!"semaphore: need 1 <= max and initial <= max");
    return 0;
}

bool semaphore::give() noexcept {
    irq_guard g;
    if (wait_wake(waiters_) != nullptr) return true;  // the unit goes to it, never into count_
    if (count_ >= max_) {
        ++overflows_;
        return false;
    }
    ++count_;
    return true;
}

bool semaphore::try_take() noexcept {
    irq_guard g;
    if (count_ == 0) return false;
    --count_;
    return true;
}

void semaphore::take() noexcept { (void)take_for(timeout_forever); }

bool semaphore::take_for(std::uint64_t us) noexcept {
    KAIROS_ASSERT(!port::in_isr());  // an isr uses try_take()
    const port::irq_state s = port::irq_disable();
    if (count_ != 0) {
        --count_;
        port::irq_restore_kernel(s);
        return true;
    }
    return wait_masked(waiters_, s, us);  // until a give() or the deadline
}

}  // namespace kairos::kernel

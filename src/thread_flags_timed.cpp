// SPDX-License-Identifier: MIT
// Thread flags waits with a deadline. Their own file, the only flags code
// that arms a deadline (arm_deadline(), deadline.cpp), so that a program
// using only the plain waits links none of the deadline code.
#include "thread_flags_impl.hpp"

namespace kairos::kernel {

flags_t flags_wait_any_for(flags_t mask, std::uint64_t us) noexcept { return wait(mask, wait_any, us); }
flags_t flags_wait_all_for(flags_t mask, std::uint64_t us) noexcept { return wait(mask, wait_all, us); }
flags_t flags_wait_one_for(flags_t mask, std::uint64_t us) noexcept { return wait(mask, wait_one, us); }

}  // namespace kairos::kernel

// SPDX-License-Identifier: MIT
// Impossible semaphore and queue configurations must not compile, each with
// its own message. tests/CMakeLists.txt compiles this file once per CASE and
// expects that case's text in the compiler's output.
#include <kairos/kernel/queue.hpp>
#include <kairos/kernel/semaphore.hpp>

struct throwing_move {
    throwing_move() = default;
    throwing_move(throwing_move&&) noexcept(false) {}
    throwing_move& operator=(throwing_move&&) noexcept(false) { return *this; }
};

#if CASE == 1
kairos::kernel::queue<int, 0> q;  // "N must be 1..65535"
#elif CASE == 2
kairos::kernel::queue<throwing_move, 4> q;  // "trivially copyable or nothrow movable"
#elif CASE == 3
constexpr kairos::kernel::semaphore s{3, 2};  // initial above max: "bad_config" (not constexpr)
#endif

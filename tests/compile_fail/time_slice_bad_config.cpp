// SPDX-License-Identifier: MIT
// A time slice outside 0..1000000000 µs must not compile (kernel/config.hpp).
// tests/CMakeLists.txt compiles this file once per CASE and expects the
// message in the compiler's output.
#if CASE == 1
#  define KAIROS_TIME_SLICE_US 1000000001
#elif CASE == 2
#  define KAIROS_TIME_SLICE_US -1
#endif
#include <kairos/kernel/config.hpp>

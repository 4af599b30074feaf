// SPDX-License-Identifier: MIT
// The few C library and C++ ABI symbols a freestanding firmware needs, so
// that -nostdlib links: GCC may emit calls to memcpy/memset/memmove/memcmp
// for struct copies and loops, and the C++ ABI names a pure-virtual trap and
// __dso_handle. Shared by the Cortex-M and lx106 firmware.
#include "target.hpp"

#include <cstddef>
#include <cstdint>

#include "runtime_libc.inc"

extern "C" void __cxa_pure_virtual() { kairos_port_panic("pure virtual call", __FILE__, __LINE__); }

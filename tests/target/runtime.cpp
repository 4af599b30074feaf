// SPDX-License-Identifier: MIT
// The few C library and C++ ABI symbols a freestanding firmware needs, so
// that -nostdlib links: GCC may emit calls to memcpy/memset/memmove/memcmp
// for struct copies and loops, and the C++ ABI names a pure-virtual trap and
// __dso_handle. Shared by the Cortex-M and lx106 firmware.
#include "target.hpp"

#include <cstddef>
#include <cstdint>

// no-tree-loop-distribute-patterns: without it GCC turns these very loops
// back into calls to memset/memcpy, i.e. into infinite recursion.
#define KAIROS_RUNTIME_FN extern "C" __attribute__((optimize("no-tree-loop-distribute-patterns")))

// memcpy copies words when both pointers are word-aligned (the kernel's
// canary check copies 16 bytes on every switch; ARMv6-M and lx106 cannot
// load unaligned words, so the compiler calls this instead of inlining).
KAIROS_RUNTIME_FN void* memcpy(void* dst, const void* src, std::size_t n) {
    auto* d = static_cast<unsigned char*>(dst);
    auto* s = static_cast<const unsigned char*>(src);
    if (((reinterpret_cast<std::uintptr_t>(d) | reinterpret_cast<std::uintptr_t>(s)) & 3u) == 0) {
        for (; n >= 4; n -= 4, d += 4, s += 4) {
            *reinterpret_cast<std::uint32_t*>(d) = *reinterpret_cast<const std::uint32_t*>(s);
        }
    }
    while (n--) *d++ = *s++;
    return dst;
}

KAIROS_RUNTIME_FN void* memmove(void* dst, const void* src, std::size_t n) {
    auto* d = static_cast<unsigned char*>(dst);
    auto* s = static_cast<const unsigned char*>(src);
    if (d < s) {
        while (n--) *d++ = *s++;
    } else {
        while (n--) d[n] = s[n];
    }
    return dst;
}

KAIROS_RUNTIME_FN void* memset(void* dst, int c, std::size_t n) {
    auto* d = static_cast<unsigned char*>(dst);
    while (n--) *d++ = static_cast<unsigned char>(c);
    return dst;
}

KAIROS_RUNTIME_FN int memcmp(const void* a, const void* b, std::size_t n) {
    auto* x = static_cast<const unsigned char*>(a);
    auto* y = static_cast<const unsigned char*>(b);
    for (; n; --n, ++x, ++y) {
        if (*x != *y) return *x < *y ? -1 : 1;
    }
    return 0;
}

extern "C" void __cxa_pure_virtual() { kairos_port_panic("pure virtual call", __FILE__, __LINE__); }

// Static destructors never run on a firmware that does not return to an OS:
// registering one (atexit, which -fno-use-cxa-atexit makes GCC call for
// function-local statics) records nothing; __dso_handle only has to exist.
extern "C" {
void* __dso_handle = nullptr;
int atexit(void (*)()) { return 0; }
}

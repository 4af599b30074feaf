// SPDX-License-Identifier: MIT
// The __atomic_*_N library functions GCC calls for read-modify-write on cores
// without a compare-and-swap instruction (ARMv6-M, Xtensa lx106), built on the
// port's interrupt mask.
//
// On those cores std::atomic<T>::fetch_add, exchange, compare_exchange... are
// compiled into calls to __atomic_fetch_add_4 etc., and no Debian library
// defines them (targets.md section 7/8). Each one here runs its
// read-modify-write with interrupts masked (port::irq_disable/irq_restore),
// which makes it atomic against interrupts and threads on a single core; the
// previous mask is restored, never unconditionally re-enabled. The memory
// order argument is ignored: masking plus the compiler barriers of
// irq_disable/irq_restore order everything on a single-core MCU (seq_cst).
// Plain loads and stores stay inline (ldr/str, l32i/s32i) and need nothing.
// With KAIROS_ATOMIC_RMW_WEAK (the framework ports) every definition is weak,
// so a framework or toolchain that has its own wins.
#include <kairos/config.hpp>
#include <kairos/port.hpp>

#include <cstdint>

#if !KAIROS_HAS_CAS

namespace {

// locked<T>(p, op) applies op to *p with interrupts masked and returns the
// old value.
template <class T, class Op>
inline T locked(volatile void* p, Op op) noexcept {
    volatile T* q = static_cast<volatile T*>(p);
    const kairos::port::irq_state s = kairos::port::irq_disable();
    const T old = *q;
    *q = op(old);
    kairos::port::irq_restore(s);
    return old;
}

template <class T>
inline bool locked_cas(volatile void* p, void* expected, T desired) noexcept {
    volatile T* q = static_cast<volatile T*>(p);
    T* e = static_cast<T*>(expected);
    const kairos::port::irq_state s = kairos::port::irq_disable();
    const T cur = *q;
    const bool ok = cur == *e;
    if (ok) {
        *q = desired;
    } else {
        *e = cur;
    }
    kairos::port::irq_restore(s);
    return ok;
}

}  // namespace

#if defined(KAIROS_ATOMIC_RMW_WEAK) && KAIROS_ATOMIC_RMW_WEAK
#  define KAIROS_ATOMIC_LINKAGE __attribute__((weak))
#else
#  define KAIROS_ATOMIC_LINKAGE
#endif

// KAIROS_ATOMIC_RMW(N, T) defines every read-modify-write of width N bytes.
#define KAIROS_ATOMIC_RMW(N, T)                                                               \
    KAIROS_ATOMIC_LINKAGE T __atomic_exchange_##N(volatile void* p, T v, int) noexcept {                           \
        return locked<T>(p, [v](T) { return v; });                                           \
    }                                                                                         \
    KAIROS_ATOMIC_LINKAGE bool __atomic_compare_exchange_##N(volatile void* p, void* e, T d, bool, int, int) noexcept { \
        return locked_cas<T>(p, e, d);                                                        \
    }                                                                                         \
    KAIROS_ATOMIC_LINKAGE T __atomic_fetch_add_##N(volatile void* p, T v, int) noexcept {                          \
        return locked<T>(p, [v](T o) { return static_cast<T>(o + v); });                     \
    }                                                                                         \
    KAIROS_ATOMIC_LINKAGE T __atomic_fetch_sub_##N(volatile void* p, T v, int) noexcept {                          \
        return locked<T>(p, [v](T o) { return static_cast<T>(o - v); });                     \
    }                                                                                         \
    KAIROS_ATOMIC_LINKAGE T __atomic_fetch_and_##N(volatile void* p, T v, int) noexcept {                          \
        return locked<T>(p, [v](T o) { return static_cast<T>(o & v); });                     \
    }                                                                                         \
    KAIROS_ATOMIC_LINKAGE T __atomic_fetch_or_##N(volatile void* p, T v, int) noexcept {                           \
        return locked<T>(p, [v](T o) { return static_cast<T>(o | v); });                     \
    }                                                                                         \
    KAIROS_ATOMIC_LINKAGE T __atomic_fetch_xor_##N(volatile void* p, T v, int) noexcept {                          \
        return locked<T>(p, [v](T o) { return static_cast<T>(o ^ v); });                     \
    }                                                                                         \
    KAIROS_ATOMIC_LINKAGE T __atomic_add_fetch_##N(volatile void* p, T v, int) noexcept {                          \
        return static_cast<T>(__atomic_fetch_add_##N(p, v, 0) + v);                          \
    }                                                                                         \
    KAIROS_ATOMIC_LINKAGE T __atomic_sub_fetch_##N(volatile void* p, T v, int) noexcept {                          \
        return static_cast<T>(__atomic_fetch_sub_##N(p, v, 0) - v);                          \
    }                                                                                         \
    KAIROS_ATOMIC_LINKAGE T __atomic_and_fetch_##N(volatile void* p, T v, int) noexcept {                          \
        return static_cast<T>(__atomic_fetch_and_##N(p, v, 0) & v);                          \
    }                                                                                         \
    KAIROS_ATOMIC_LINKAGE T __atomic_or_fetch_##N(volatile void* p, T v, int) noexcept {                           \
        return static_cast<T>(__atomic_fetch_or_##N(p, v, 0) | v);                           \
    }                                                                                         \
    KAIROS_ATOMIC_LINKAGE T __atomic_xor_fetch_##N(volatile void* p, T v, int) noexcept {                          \
        return static_cast<T>(__atomic_fetch_xor_##N(p, v, 0) ^ v);                          \
    }

extern "C" {
KAIROS_ATOMIC_RMW(1, std::uint8_t)
KAIROS_ATOMIC_RMW(2, std::uint16_t)
KAIROS_ATOMIC_RMW(4, unsigned int)
}

#undef KAIROS_ATOMIC_RMW
#undef KAIROS_ATOMIC_LINKAGE

#endif  // !KAIROS_HAS_CAS

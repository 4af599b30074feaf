// SPDX-License-Identifier: MIT
// The 1- and 2-byte __atomic_*_N library functions GCC calls on RV32 with
// the A extension, which has LR/SC and AMOs for words only (GCC 12 does not
// inline sub-word read-modify-write): each is a compare-and-swap loop on the
// aligned word that holds the operand, changing only the operand's bytes,
// so it is lock-free and correct against other harts too. Without the A
// extension port/mcu_common/atomic_irq.cpp defines every width on the
// interrupt mask instead. Plain loads and stores stay inline (lb/sb, lh/sh).
// The memory order arguments are ignored: every operation is seq_cst, the
// strongest, which every requested order is allowed to get.
#include <cstdint>

#if defined(__riscv_atomic)

namespace {

using word_alias = std::uint32_t __attribute__((may_alias));

// rmw<T>(p, op) replaces *p by op(*p) atomically and returns the old value.
template <class T, class Op>
inline T rmw(volatile void* p, Op op) noexcept {
    const auto addr = reinterpret_cast<std::uintptr_t>(p);
    auto* w = reinterpret_cast<volatile word_alias*>(addr & ~std::uintptr_t{3});
    const unsigned shift = static_cast<unsigned>(addr & 3u) * 8u;  // little-endian
    const std::uint32_t mask = std::uint32_t{static_cast<T>(~T{0})} << shift;
    // relaxed: only the first guess for the CAS below, which checks it.
    std::uint32_t old = __atomic_load_n(w, __ATOMIC_RELAXED);
    for (;;) {
        const auto cur = static_cast<T>((old & mask) >> shift);
        const std::uint32_t next = (old & ~mask) | ((std::uint32_t{op(cur)} << shift) & mask);
        // seq_cst on success: the strongest order any caller may ask for;
        // relaxed on failure: the loop only retries with the value seen.
        if (__atomic_compare_exchange_n(w, &old, next, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
            return cur;
        }
    }
}

// cas<T>(p, e, d): *p = d if *p == *e (true), else *e = *p (false).
template <class T>
inline bool cas(volatile void* p, void* expected, T desired) noexcept {
    T* e = static_cast<T*>(expected);
    const T want = *e;
    bool ok = false;
    const T seen = rmw<T>(p, [&](T cur) {
        ok = cur == want;
        return ok ? desired : cur;
    });
    if (!ok) *e = seen;
    return ok;
}

}  // namespace

// KAIROS_ATOMIC_SUBWORD(N, T) defines every read-modify-write of width N.
#define KAIROS_ATOMIC_SUBWORD(N, T)                                                                     \
    T __atomic_exchange_##N(volatile void* p, T v, int) noexcept {                                     \
        return rmw<T>(p, [v](T) { return v; });                                                        \
    }                                                                                                   \
    bool __atomic_compare_exchange_##N(volatile void* p, void* e, T d, bool, int, int) noexcept {     \
        return cas<T>(p, e, d);                                                                         \
    }                                                                                                   \
    T __atomic_fetch_add_##N(volatile void* p, T v, int) noexcept {                                    \
        return rmw<T>(p, [v](T o) { return static_cast<T>(o + v); });                                  \
    }                                                                                                   \
    T __atomic_fetch_sub_##N(volatile void* p, T v, int) noexcept {                                    \
        return rmw<T>(p, [v](T o) { return static_cast<T>(o - v); });                                  \
    }                                                                                                   \
    T __atomic_fetch_and_##N(volatile void* p, T v, int) noexcept {                                    \
        return rmw<T>(p, [v](T o) { return static_cast<T>(o & v); });                                  \
    }                                                                                                   \
    T __atomic_fetch_or_##N(volatile void* p, T v, int) noexcept {                                     \
        return rmw<T>(p, [v](T o) { return static_cast<T>(o | v); });                                  \
    }                                                                                                   \
    T __atomic_fetch_xor_##N(volatile void* p, T v, int) noexcept {                                    \
        return rmw<T>(p, [v](T o) { return static_cast<T>(o ^ v); });                                  \
    }                                                                                                   \
    T __atomic_add_fetch_##N(volatile void* p, T v, int) noexcept {                                    \
        return static_cast<T>(__atomic_fetch_add_##N(p, v, 0) + v);                                    \
    }                                                                                                   \
    T __atomic_sub_fetch_##N(volatile void* p, T v, int) noexcept {                                    \
        return static_cast<T>(__atomic_fetch_sub_##N(p, v, 0) - v);                                    \
    }                                                                                                   \
    T __atomic_and_fetch_##N(volatile void* p, T v, int) noexcept {                                    \
        return static_cast<T>(__atomic_fetch_and_##N(p, v, 0) & v);                                    \
    }                                                                                                   \
    T __atomic_or_fetch_##N(volatile void* p, T v, int) noexcept {                                     \
        return static_cast<T>(__atomic_fetch_or_##N(p, v, 0) | v);                                     \
    }                                                                                                   \
    T __atomic_xor_fetch_##N(volatile void* p, T v, int) noexcept {                                    \
        return static_cast<T>(__atomic_fetch_xor_##N(p, v, 0) ^ v);                                    \
    }

extern "C" {
KAIROS_ATOMIC_SUBWORD(1, std::uint8_t)
KAIROS_ATOMIC_SUBWORD(2, std::uint16_t)
}

#undef KAIROS_ATOMIC_SUBWORD

#endif  // __riscv_atomic

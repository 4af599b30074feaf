// SPDX-License-Identifier: MIT
// kairos/config.hpp: platform facts and the assertion hook.
//
// Every macro here is a fact about the target, detected from the compiler's
// predefined macros and overridable with -D. Nothing else in the portable core
// looks at architecture macros. The core includes only these standard headers:
// <atomic> <cstddef> <cstdint> <new> <type_traits> <utility>, so
// freestanding toolchains need no more than that.
#pragma once

#include <cstddef>
#include <cstdint>

// KAIROS_HAS_CLZ: 1 when count-leading-zeros is one instruction (ARM clz,
// x86 bsr/lzcnt, AArch64 clz, Xtensa nsau, RISC-V Zbb clz). Decides the bit
// order of the run-queue bitmap (seed 002) and which bits.hpp path is used.
#ifndef KAIROS_HAS_CLZ
#  if defined(__ARM_FEATURE_CLZ) || defined(__aarch64__) || defined(__x86_64__) || \
      defined(__i386__) || defined(__XTENSA__) || defined(__riscv_zbb)
#    define KAIROS_HAS_CLZ 1
#  else
#    define KAIROS_HAS_CLZ 0
#  endif
#endif

// KAIROS_NARROW_LOAD_OFFSETS: 1 when a load's immediate offset reaches only
// a few words and a field beyond costs extra instructions (Thumb-1: words
// up to 124 bytes, halfwords up to 62, bytes up to 31); then the
// scheduler's hot object puts its small fields first. 0 elsewhere, where
// it puts its run-queue lists at offset 0 instead, so a level's list is
// one load (Thumb-2, AArch64, x86: base + (prio << 2)) or one add and a
// load from the object's address (RISC-V, Xtensa).
#ifndef KAIROS_NARROW_LOAD_OFFSETS
#  if defined(__thumb__) && !defined(__thumb2__)
#    define KAIROS_NARROW_LOAD_OFFSETS 1
#  else
#    define KAIROS_NARROW_LOAD_OFFSETS 0
#  endif
#endif

// KAIROS_HAS_POPCNT: 1 when population count is one instruction.
#ifndef KAIROS_HAS_POPCNT
#  if defined(__POPCNT__) || defined(__aarch64__) || defined(__riscv_zbb)
#    define KAIROS_HAS_POPCNT 1
#  else
#    define KAIROS_HAS_POPCNT 0
#  endif
#endif

// KAIROS_HAS_DIV: 1 when 32-bit unsigned division is one instruction (or
// the compiler turns a division by a constant into a multiply-high). 0 on
// ARMv6-M and lx106, where `/` is a library call: div_u64 multiplies by a
// reciprocal there instead.
#ifndef KAIROS_HAS_DIV
#  if defined(__ARM_ARCH_6M__) || defined(__XTENSA__)
#    define KAIROS_HAS_DIV 0
#  else
#    define KAIROS_HAS_DIV 1
#  endif
#endif

// KAIROS_HAS_CAS: 1 when 32-bit compare-and-swap is lock-free in hardware.
// 0 on ARMv6-M, lx106 and RV32 without the A extension (rv32imc, ESP32-C3):
// read-modify-write there goes through the port's critical section
// (mpsc_ring, atomics shims).
#ifndef KAIROS_HAS_CAS
#  if defined(__GCC_ATOMIC_INT_LOCK_FREE) && __GCC_ATOMIC_INT_LOCK_FREE == 2
#    define KAIROS_HAS_CAS 1
#  else
#    define KAIROS_HAS_CAS 0
#  endif
#endif

// KAIROS_MPSC_POP_BARRIER: 1 where a full barrier after each mpsc_ring pop
// is one cheap instruction (x86: a locked xchg) and measured faster, because
// it stops the consumer running ahead into lines producers are still writing
// (docs/rings.md). 0 elsewhere: on LL/SC cores an exchange is a loop, and
// single-core MCUs gain nothing.
#ifndef KAIROS_MPSC_POP_BARRIER
#  if defined(__x86_64__) || defined(__i386__)
#    define KAIROS_MPSC_POP_BARRIER 1
#  else
#    define KAIROS_MPSC_POP_BARRIER 0
#  endif
#endif

// KAIROS_CACHE_LINE: the false-sharing distance used for alignas on
// concurrent state. A library constant, not
// std::hardware_destructive_interference_size (GCC warns when that reaches
// an ABI and its value changes with -mtune). 128 on Apple M and POWER, where
// the coherence unit is 128 bytes; 64 elsewhere; 4 on single-core MCUs,
// where padding only wastes RAM (bare-metal RV32 among them).
#ifndef KAIROS_CACHE_LINE
#  if (defined(__APPLE__) && defined(__aarch64__)) || defined(__powerpc64__)
#    define KAIROS_CACHE_LINE 128
#  elif defined(__ARM_ARCH_6M__) || defined(__ARM_ARCH_7M__) || \
        defined(__ARM_ARCH_7EM__) || defined(__XTENSA__) || \
        (defined(__riscv) && __riscv_xlen == 32 && !defined(__linux__))
#    define KAIROS_CACHE_LINE 4
#  else
#    define KAIROS_CACHE_LINE 64
#  endif
#endif

// KAIROS_ISR_FN: placement for functions an interrupt may call. On ESP
// chips they must sit in IRAM, because the flash cache may be off when the
// ISR runs: ESP-IDF's linker scripts collect .iram1.*, the ESP8266 core's
// and the lx106 boards' .iram.text. GCC drops the attribute on template
// instantiations (GCC bug 70435): linker fragments place those by section
// name (port/xtensa_lx106/iram.ld, linker.lf).
// Each use gets a section of its own (__COUNTER__), as the ESP cores' own
// IRAM_ATTR does: an inline function's section is a COMDAT group, and GCC
// refuses to put it in one section with a non-inline function.
#define KAIROS_STR_(x) #x
#define KAIROS_STR(x) KAIROS_STR_(x)
#ifndef KAIROS_ISR_FN
#  if defined(ESP_PLATFORM)
#    define KAIROS_ISR_FN __attribute__((section(".iram1.kairos." KAIROS_STR(__COUNTER__))))
#  elif defined(__XTENSA__)
#    define KAIROS_ISR_FN __attribute__((section(".iram.text.kairos." KAIROS_STR(__COUNTER__))))
#  else
#    define KAIROS_ISR_FN
#  endif
#endif

// KAIROS_ASAN / KAIROS_TSAN: 1 when this translation unit is built with
// AddressSanitizer / ThreadSanitizer, 0 otherwise. GCC defines
// __SANITIZE_ADDRESS__ / __SANITIZE_THREAD__, clang only answers
// __has_feature(), so code that must cooperate with a sanitizer (stack
// unpoisoning, fiber switch hooks) tests these, never the GCC macros.
#ifndef KAIROS_ASAN
#  if defined(__SANITIZE_ADDRESS__)
#    define KAIROS_ASAN 1
#  elif defined(__has_feature)
#    if __has_feature(address_sanitizer)
#      define KAIROS_ASAN 1
#    endif
#  endif
#  ifndef KAIROS_ASAN
#    define KAIROS_ASAN 0
#  endif
#endif
#ifndef KAIROS_TSAN
#  if defined(__SANITIZE_THREAD__)
#    define KAIROS_TSAN 1
#  elif defined(__has_feature)
#    if __has_feature(thread_sanitizer)
#      define KAIROS_TSAN 1
#    endif
#  endif
#  ifndef KAIROS_TSAN
#    define KAIROS_TSAN 0
#  endif
#endif

// KAIROS_ASSERTS: run-time checks of preconditions (misuse of the API).
// On by default unless NDEBUG.
#ifndef KAIROS_ASSERTS
#  ifdef NDEBUG
#    define KAIROS_ASSERTS 0
#  else
#    define KAIROS_ASSERTS 1
#  endif
#endif

// kairos_assert_failed() reports a violated precondition and does not return:
// src/assert.cpp hands it to the port's kairos_port_panic() (port.hpp; hosts
// print to stderr and abort, the MCU ports print and exit 97). The library
// defines it whatever its own KAIROS_ASSERTS, so code built with assertions
// links against a library built without them (a Debug firmware, a Release
// kairos) and the other way round.
// KAIROS_FILE names the source file in a panic or assertion report: its
// base name where the compiler has __FILE_NAME__ (GCC 12, Clang 9), so a
// firmware carries neither the checkout path (which would make its size
// depend on where it was built) nor a string per directory level.
#ifdef __FILE_NAME__
#  define KAIROS_FILE __FILE_NAME__
#else
#  define KAIROS_FILE __FILE__
#endif

extern "C" [[noreturn]] void kairos_assert_failed(const char* expr, const char* file,
                                                  int line) noexcept;

#if KAIROS_ASSERTS
#  define KAIROS_ASSERT(cond) \
    ((cond) ? static_cast<void>(0) : kairos_assert_failed(#cond, KAIROS_FILE, __LINE__))
#else
#  define KAIROS_ASSERT(cond) static_cast<void>(0)
#endif

namespace kairos {

inline constexpr std::size_t cache_line = KAIROS_CACHE_LINE;

// cpu_relax() tells the core we are spinning (x86 pause, AArch64 yield), so
// a sibling hyperthread gets the pipeline and the spin does not flood the bus.
inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || (defined(__ARM_ARCH) && __ARM_ARCH >= 7)
    asm volatile("yield" ::: "memory");
#else
    asm volatile("" ::: "memory");
#endif
}

}  // namespace kairos

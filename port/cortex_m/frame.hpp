// SPDX-License-Identifier: MIT
// Layout of the Cortex-M switch frame, shared by pendsv.S (as #defines) and
// port.cpp (structs static_assert'ed against them). See the header comment
// of pendsv.S. Usable from assembly: only #defines outside __cplusplus.
#pragma once

// ARMv8-M mainline keeps each thread's stack limit (PSPLIM) in its frame
// (GCC also defines __ARM_ARCH_8M_MAIN__ for ARMv8.1-M, e.g. Cortex-M55).
#if defined(__ARM_ARCH_8M_MAIN__)
#  define KAIROS_CM_HAS_PSPLIM 1
#else
#  define KAIROS_CM_HAS_PSPLIM 0
#endif

// ARMv6-M keeps no EXC_RETURN per thread: without an FPU every thread
// returns with the same value (thread mode, PSP, basic frame), so PendSV
// keeps the one it entered with on the handler stack.
#if defined(__ARM_ARCH_6M__)
#  define KAIROS_CM_HAS_EXC_RETURN 0
#else
#  define KAIROS_CM_HAS_EXC_RETURN 1
#endif

// Software frame at the context handle: [PSPLIM] r4-r11 [EXC_RETURN].
#if KAIROS_CM_HAS_PSPLIM
#  define KAIROS_CM_PSPLIM 0
#  define KAIROS_CM_R4 4
#else
#  define KAIROS_CM_R4 0
#endif
#define KAIROS_CM_R8 (KAIROS_CM_R4 + 16)
#if KAIROS_CM_HAS_EXC_RETURN
#  define KAIROS_CM_EXC_RETURN (KAIROS_CM_R4 + 32)
#  define KAIROS_CM_SW_FRAME (KAIROS_CM_EXC_RETURN + 4)
#else
#  define KAIROS_CM_SW_FRAME (KAIROS_CM_R4 + 32)
#endif
// s16-s31, above the software frame when EXC_RETURN bit 4 is 0.
#define KAIROS_CM_FP_FRAME 64
// EXC_RETURN bit 4 (FType): 0 = extended (floating-point) frame.
#define KAIROS_CM_EXC_RETURN_FTYPE 0x10

// The kernel keeps an 8-byte canary at the bottom of every thread stack
// (src/sched.cpp); the hardware limit sits above it.
#define KAIROS_CM_CANARY 8

#ifdef __cplusplus
#include <cstddef>
#include <cstdint>

namespace kairos::cortex_m {

// sw_frame is what the context handle points at; pendsv.S stores it with
// one stmdb (register-list order: ascending addresses).
struct sw_frame {
#if KAIROS_CM_HAS_PSPLIM
    std::uint32_t psplim;
#endif
    std::uint32_t r4_r11[8];
#if KAIROS_CM_HAS_EXC_RETURN
    std::uint32_t exc_return;
#endif
};
// hw_frame is the basic frame the core stacks on exception entry.
struct hw_frame {
    std::uint32_t r0, r1, r2, r3, r12, lr, pc, xpsr;
};
// initial_frame is what stack_init() builds: a thread that has not run yet
// looks like one PendSV switched away from, with a basic frame.
struct initial_frame {
    sw_frame sw;
    hw_frame hw;
};
#if KAIROS_CM_HAS_PSPLIM
static_assert(offsetof(sw_frame, psplim) == KAIROS_CM_PSPLIM);
#endif
static_assert(offsetof(sw_frame, r4_r11) == KAIROS_CM_R4);
static_assert(offsetof(sw_frame, r4_r11[4]) == KAIROS_CM_R8);
#if KAIROS_CM_HAS_EXC_RETURN
static_assert(offsetof(sw_frame, exc_return) == KAIROS_CM_EXC_RETURN);
#endif
static_assert(sizeof(sw_frame) == KAIROS_CM_SW_FRAME);
static_assert(sizeof(hw_frame) == 8 * 4, "basic hardware frame: 8 words, so top - 32 stays 8-aligned");

// stack_guard: the bytes at the bottom of a thread's stack that its PSPLIM
// keeps free: the kernel's canary, then room for the frame PendSV stores
// below the hardware-stacked one without a limit check (s16-s31 with an
// FPU, and the software frame), so a thread stopped right at its limit is
// still switched away from without touching the canary. PSPLIM ignores
// bits [2:0]: the sum must be a multiple of 8.
#if KAIROS_CM_HAS_PSPLIM
#  if defined(__ARM_FP)
inline constexpr std::size_t stack_guard = KAIROS_CM_CANARY + KAIROS_CM_FP_FRAME + KAIROS_CM_SW_FRAME;
#  else
inline constexpr std::size_t stack_guard = KAIROS_CM_CANARY + KAIROS_CM_SW_FRAME;
#  endif
static_assert(stack_guard % 8 == 0, "PSPLIM is 8-byte aligned");
#else
inline constexpr std::size_t stack_guard = 0;
#endif

}  // namespace kairos::cortex_m
#endif

// SPDX-License-Identifier: MIT
// Layout of the AArch64 AAPCS64 switch frame, shared by switch.S (as
// #defines) and port.cpp (a struct static_assert'ed against them). See the
// diagram atop switch.S.
#pragma once

#define KAIROS_A64_X19 0
#define KAIROS_A64_X21 16
#define KAIROS_A64_X23 32
#define KAIROS_A64_X25 48
#define KAIROS_A64_X27 64
#define KAIROS_A64_FP 80
#define KAIROS_A64_LR 88
#define KAIROS_A64_D8 96
#define KAIROS_A64_D10 112
#define KAIROS_A64_D12 128
#define KAIROS_A64_D14 144
#define KAIROS_A64_FRAME 160

#ifdef __cplusplus
#include <cstddef>
#include <cstdint>

namespace kairos::aarch64 {

// switch_frame is what the context handle (saved sp) points at.
struct switch_frame {
    std::uint64_t x19, x20, x21, x22, x23, x24, x25, x26, x27, x28;
    std::uint64_t fp, lr;  // lr: resume address, taken with br (not ret)
    std::uint64_t d8, d9, d10, d11, d12, d13, d14, d15;
};
static_assert(offsetof(switch_frame, x19) == KAIROS_A64_X19);
static_assert(offsetof(switch_frame, x21) == KAIROS_A64_X21);
static_assert(offsetof(switch_frame, x23) == KAIROS_A64_X23);
static_assert(offsetof(switch_frame, x25) == KAIROS_A64_X25);
static_assert(offsetof(switch_frame, x27) == KAIROS_A64_X27);
static_assert(offsetof(switch_frame, fp) == KAIROS_A64_FP);
static_assert(offsetof(switch_frame, lr) == KAIROS_A64_LR);
static_assert(offsetof(switch_frame, d8) == KAIROS_A64_D8);
static_assert(offsetof(switch_frame, d10) == KAIROS_A64_D10);
static_assert(offsetof(switch_frame, d12) == KAIROS_A64_D12);
static_assert(offsetof(switch_frame, d14) == KAIROS_A64_D14);
static_assert(sizeof(switch_frame) == KAIROS_A64_FRAME);
static_assert(KAIROS_A64_FRAME % 16 == 0, "sp stays 16-byte aligned");

}  // namespace kairos::aarch64
#endif

// SPDX-License-Identifier: MIT
// Layout of the x86-64 SysV switch frame, shared by switch.S (as #defines)
// and port.cpp (as a struct whose offsets are static_assert'ed against
// them). See the diagram atop switch.S.
#pragma once

#define KAIROS_X64_R15 0x00
#define KAIROS_X64_R14 0x08
#define KAIROS_X64_R13 0x10
#define KAIROS_X64_R12 0x18
#define KAIROS_X64_RBX 0x20
#define KAIROS_X64_RBP 0x28
#define KAIROS_X64_RIP 0x30
#define KAIROS_X64_FRAME 0x38

#ifdef __cplusplus
#include <cstddef>
#include <cstdint>

namespace kairos::x86_64 {

// switch_frame is what the context handle (saved rsp) points at.
struct switch_frame {
    std::uint64_t r15, r14, r13, r12, rbx, rbp;
    std::uint64_t rip;  // resume address, taken by ret
};
static_assert(offsetof(switch_frame, r15) == KAIROS_X64_R15);
static_assert(offsetof(switch_frame, r14) == KAIROS_X64_R14);
static_assert(offsetof(switch_frame, r13) == KAIROS_X64_R13);
static_assert(offsetof(switch_frame, r12) == KAIROS_X64_R12);
static_assert(offsetof(switch_frame, rbx) == KAIROS_X64_RBX);
static_assert(offsetof(switch_frame, rbp) == KAIROS_X64_RBP);
static_assert(offsetof(switch_frame, rip) == KAIROS_X64_RIP);
static_assert(sizeof(switch_frame) == KAIROS_X64_FRAME);

}  // namespace kairos::x86_64
#endif

// SPDX-License-Identifier: MIT
// Layout of the lx106 exception frame, shared by switch.S (as #defines) and
// port.cpp (as a struct whose offsets are static_assert'ed against them).
// It is both what the user vector saves on the interrupted stack and a
// switched-out thread's saved context; see the diagram atop switch.S.
#pragma once

#define KAIROS_LX106_PC 0     /* EPC1: where rfe resumes */
#define KAIROS_LX106_PS 4     /* PS as in the handler: EXCM set, rfe clears it */
#define KAIROS_LX106_SAR 8
#define KAIROS_LX106_A0 12
#define KAIROS_LX106_A2 16    /* a2..a15 follow, 4 bytes each */
#define KAIROS_LX106_FRAME 80 /* 18 words rounded up: a1 stays 16-byte aligned */

#define KAIROS_LX106_PS_EXCM 0x10 /* exception mode: level-1 interrupts masked */
#define KAIROS_LX106_PS_UM 0x20   /* user vector mode */
#define KAIROS_LX106_SOFT_IRQ 7   /* the software interrupt the port uses as PendSV */

#ifdef __cplusplus
#include <cstddef>
#include <cstdint>

namespace kairos::lx106 {

// exception_frame is what the context handle (saved a1) points at.
struct exception_frame {
    std::uint32_t pc, ps, sar, a0;
    std::uint32_t a2_a15[14];  // a1 is not saved: it is the handle + KAIROS_LX106_FRAME
    std::uint32_t pad[2];
};
static_assert(offsetof(exception_frame, pc) == KAIROS_LX106_PC);
static_assert(offsetof(exception_frame, ps) == KAIROS_LX106_PS);
static_assert(offsetof(exception_frame, sar) == KAIROS_LX106_SAR);
static_assert(offsetof(exception_frame, a0) == KAIROS_LX106_A0);
static_assert(offsetof(exception_frame, a2_a15) == KAIROS_LX106_A2);
static_assert(sizeof(exception_frame) == KAIROS_LX106_FRAME);
static_assert(KAIROS_LX106_FRAME % 16 == 0, "the CALL0 ABI keeps a1 16-byte aligned");

}  // namespace kairos::lx106
#endif

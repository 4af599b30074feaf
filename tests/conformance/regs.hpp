// SPDX-License-Identifier: MIT
// regs.hpp: the register-conformance helper, one assembly file per
// architecture (regs_<arch>.S).
//
// kt_regs_hold(seed, out, op, arg) loads every callee-saved register of the
// ABI from seed[0 .. kt_regs_count), calls op(arg) (which yields, blocks or
// is preempted), then stores the same registers to out[] and restores the
// caller's. Between the loads and the stores only op and what it calls run,
// so a register the port's switch fails to save and restore reaches out[]
// with another thread's value.
#pragma once

#include <cstddef>
#include <cstdint>

using kt_reg = std::uint64_t;

#if defined(__x86_64__)
// rbx rbp r12 r13 r14 r15
inline constexpr std::size_t kt_regs_count = 6;
inline constexpr const char* kt_regs_names[kt_regs_count] = {"rbx", "rbp", "r12", "r13", "r14", "r15"};
#elif defined(__aarch64__)
// x19-x29, then d8-d15 (their 64-bit patterns)
inline constexpr std::size_t kt_regs_count = 19;
inline constexpr const char* kt_regs_names[kt_regs_count] = {
    "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28",
    "x29", "d8",  "d9",  "d10", "d11", "d12", "d13", "d14", "d15"};
#else
// Still to come: Cortex-M (r4-r11, s16-s31), lx106 (CALL0 a12-a15),
// RISC-V (s0-s11).
#error "regs.hpp: no register-conformance helper for this architecture yet"
#endif

extern "C" void kt_regs_hold(const kt_reg* seed, kt_reg* out, void (*op)(void*), void* arg);

// SPDX-License-Identifier: MIT
// regs.hpp: the register-conformance helper, one assembly file per
// architecture (regs_<arch>.S).
//
// kt_regs_switch(seed, out) loads every callee-saved register of the ABI
// from seed[0 .. kt_regs_count), enters the port's switch routine directly
// (the entry host::switch_now() makes), then stores the same registers to
// out[] and restores the caller's. Called as host.cpp's unmask() calls the
// switch: virtual mask set, switch request consumed. Between the loads and
// the stores only the switch routine runs (and, in it, the other threads),
// so a register it fails to save and restore reaches out[] with another
// thread's value, whatever the optimisation level of the C++ around it.
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
// Cortex-M and lx106 have their own helpers (tests/target/<arch>/regs_*);
// still to come: RISC-V (s0-s11).
#error "regs.hpp: no register-conformance helper for this architecture yet"
#endif

extern "C" void kt_regs_switch(const kt_reg* seed, kt_reg* out);

// kt_regs_call(seed, out, fn) loads the same registers from seed[], calls
// fn() as an ordinary function, stores them to out[] and restores the
// caller's: a register fn() (here a kernel call such as yield(), which may
// switch threads directly, port::switch_to()) fails to preserve reaches
// out[] changed, whatever the optimisation level of the C++ around it.
extern "C" void kt_regs_call(const kt_reg* seed, kt_reg* out, void (*fn)());

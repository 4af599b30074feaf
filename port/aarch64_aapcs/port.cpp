// SPDX-License-Identifier: MIT
// AArch64 AAPCS64 port: stack_init and host::switch_now() over switch.S;
// the rest of the contract is host_common/host.cpp.
#include "frame.hpp"

#include "../host_common/host_switch.hpp"

#include <kairos/port.hpp>

#include <cstdint>
#include <cstring>

extern "C" void kairos_aarch64_start() noexcept;

namespace kairos::port {

std::size_t min_stack_size() noexcept {
    return sizeof(aarch64::switch_frame) + 256 + host::thread_stack_extra();
}

void* stack_init(void* lo, std::size_t size, entry_fn entry, void* arg) noexcept {
    const auto top = reinterpret_cast<std::uintptr_t>(lo) + size;  // 16-aligned (stack_align)
    auto* f = reinterpret_cast<aarch64::switch_frame*>(top - sizeof(aarch64::switch_frame));
    std::memset(static_cast<void*>(f), 0, sizeof(*f));
    f->x19 = reinterpret_cast<std::uint64_t>(entry);
    f->x20 = reinterpret_cast<std::uint64_t>(arg);
    f->x21 = reinterpret_cast<std::uint64_t>(&kairos_host_thread_start);
    f->lr = reinterpret_cast<std::uint64_t>(&kairos_aarch64_start);
    host::register_stack(lo, size);
    return f;
}

const char* name() noexcept { return "aarch64_aapcs"; }

}  // namespace kairos::port

namespace kairos::host {

// switch_now() enters switch.S with a plain branch and the resume address
// put in lr by hand, so neither the entry nor the `br x30` exit touches the
// return-address predictor (see the x86-64 port: a bl in and a br out
// would misalign it for every later return). Every caller-saved register is
// clobbered: kairos_sched_switch() and the other thread run in between.
__attribute__((noinline)) void switch_now() noexcept {
    asm volatile(
        "adr x30, 1f\n\t"
        "b kairos_aarch64_switch\n"
        "1:"
        :
        :
        : "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13",
          "x14", "x15", "x16", "x17", "x18", "x30", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7",
          "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24", "v25", "v26", "v27",
          "v28", "v29", "v30", "v31", "memory", "cc");
}

}  // namespace kairos::host

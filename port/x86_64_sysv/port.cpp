// SPDX-License-Identifier: MIT
// x86-64 SysV port: stack_init here, host::switch_now() in switch.S; the
// rest of the contract is host_common/host.cpp.
#include "frame.hpp"

#include "../host_common/host_switch.hpp"

#include <kairos/port.hpp>

#include <cstdint>
#include <cstring>

extern "C" void kairos_x86_64_start() noexcept;

namespace kairos::port {

std::size_t min_stack_size() noexcept {
    return sizeof(x86_64::switch_frame) + 16 + 256 + host::thread_stack_extra();
}

void* stack_init(void* lo, std::size_t size, entry_fn entry, void* arg) noexcept {
    const auto top = reinterpret_cast<std::uintptr_t>(lo) + size;  // 16-aligned (stack_align)
    // After the pops rsp = handle + frame size; keep it 16-aligned so the
    // entry trampoline kairos_x86_64_start calls with the ABI's alignment,
    // with a zero fake return address above it for debuggers.
    const std::uintptr_t after = top - 16;
    auto* f = reinterpret_cast<x86_64::switch_frame*>(after - sizeof(x86_64::switch_frame));
    std::memset(reinterpret_cast<void*>(after - sizeof(x86_64::switch_frame)), 0,
                sizeof(x86_64::switch_frame) + 16);
    f->r13 = reinterpret_cast<std::uint64_t>(arg);
    f->r12 = reinterpret_cast<std::uint64_t>(&kairos_host_thread_start);
    f->rbx = reinterpret_cast<std::uint64_t>(entry);
    f->rip = reinterpret_cast<std::uint64_t>(&kairos_x86_64_start);
    host::register_stack(lo, size);
    return f;
}

const char* name() noexcept { return "x86_64_sysv"; }

}  // namespace kairos::port

// AArch64 AAPCS64 port: stack_init and host::switch_now() over switch.S;
// the rest of the contract is host_common/host.cpp.
#include "frame.hpp"

#include "../host_common/host_switch.hpp"

#include <kairos/port.hpp>

#include <cstdint>
#include <cstring>

extern "C" void kairos_aarch64_switch() noexcept;
extern "C" void kairos_aarch64_start() noexcept;

namespace kairos::port {

std::size_t min_stack_size() noexcept { return sizeof(aarch64::switch_frame) + 256; }

void* stack_init(void* lo, std::size_t size, entry_fn entry, void* arg) noexcept {
    const auto top = reinterpret_cast<std::uintptr_t>(lo) + size;  // 16-aligned (stack_align)
    auto* f = reinterpret_cast<aarch64::switch_frame*>(top - sizeof(aarch64::switch_frame));
    std::memset(static_cast<void*>(f), 0, sizeof(*f));
    f->x19 = reinterpret_cast<std::uint64_t>(entry);
    f->x20 = reinterpret_cast<std::uint64_t>(arg);
    f->x21 = reinterpret_cast<std::uint64_t>(&kairos_host_thread_start);
    f->lr = reinterpret_cast<std::uint64_t>(&kairos_aarch64_start);
    return f;
}

const char* name() noexcept { return "aarch64_aapcs"; }

}  // namespace kairos::port

namespace kairos::host {
void switch_now() noexcept { kairos_aarch64_switch(); }
}  // namespace kairos::host

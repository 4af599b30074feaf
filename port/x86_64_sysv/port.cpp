// x86-64 SysV port: stack_init and host::switch_now() over switch.S; the
// rest of the contract is host_common/host.cpp.
#include "frame.hpp"

#include "../host_common/host_switch.hpp"

#include <kairos/port.hpp>

#include <cstdint>
#include <cstring>

extern "C" void kairos_x86_64_start() noexcept;

namespace kairos::port {

std::size_t min_stack_size() noexcept { return sizeof(x86_64::switch_frame) + 16 + 256; }

void* stack_init(void* lo, std::size_t size, entry_fn entry, void* arg) noexcept {
    const auto top = reinterpret_cast<std::uintptr_t>(lo) + size;  // 16-aligned (stack_align)
    // After the pops rsp = handle + frame size; keep it 16-aligned so the
    // start stub's call sees the ABI's alignment, with a zero fake return
    // address above it for debuggers.
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

namespace kairos::host {

// switch_now() enters switch.S by a jump with the resume address pushed by
// hand (see there: keeps the return-stack buffer balanced). It first skips
// the red zone below rsp, where the compiler may keep data, and aligns rsp
// to 16 (saving the old rsp on the stack), so switch.S can call C++ at
// once. Every caller-saved register is clobbered: kairos_sched_switch() and
// the other thread run in between.
__attribute__((noinline)) void switch_now() noexcept {
    asm volatile(
        "movq %%rsp, %%rax\n\t"
        "subq $128, %%rsp\n\t"
        "andq $-16, %%rsp\n\t"
        "pushq %%rax\n\t"
        "leaq 1f(%%rip), %%rcx\n\t"
        "pushq %%rcx\n\t"
        "jmp kairos_x86_64_switch\n"
        "1:\n\t"
        "movq (%%rsp), %%rsp"
        :
        :
        : "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "memory", "cc", "xmm0",
          "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",
          "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "st", "st(1)", "st(2)", "st(3)", "st(4)",
          "st(5)", "st(6)", "st(7)");
    finish_switch();
}

}  // namespace kairos::host

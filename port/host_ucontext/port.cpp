// SPDX-License-Identifier: MIT
// host_ucontext: the reference port. Switches with swapcontext(), which
// sanitizers can be told about: ASan through
// __sanitizer_start/finish_switch_fiber, TSan through __tsan_*_fiber. The
// sanitizer presets use this port; the assembly ports are checked against
// it by running the same tests.
//
// Cost: glibc's swapcontext() saves and restores the signal mask with one
// rt_sigprocmask per switch. That is inherent to ucontext, not to kairos'
// masking (the virtual mask needs none); the asm ports have no system call.
//
// A thread's context handle points at a frame this port keeps at the top
// of the thread's stack (below it the thread's own stack).
#include "../host_common/host_switch.hpp"

#include <kairos/port.hpp>

#include <cstdint>
#include <new>

#include <ucontext.h>

#if KAIROS_ASAN
#  include <sanitizer/common_interface_defs.h>
#endif
#if KAIROS_TSAN
#  include <sanitizer/tsan_interface.h>
#endif

namespace {

struct frame {
    ucontext_t uc;
    const void* stack_lo = nullptr;  // the usable stack below this frame
    std::size_t stack_size = 0;
    kairos::port::entry_fn entry = nullptr;
    void* arg = nullptr;
    void* fake_stack = nullptr;  // ASan's fake stack while switched out
    void* tsan_fiber = nullptr;
};

frame boot;                // the context that called run()
frame* running = &boot;    // the frame whose context is live

#if KAIROS_TSAN
// TSan fibers outlive their threads (a slot's stack is reused by a later
// thread): remember them by frame address and destroy on reuse.
constexpr int max_fibers = 256;
struct fiber_slot {
    frame* f;
    void* fiber;
};
fiber_slot fibers[max_fibers];

void* fresh_fiber(frame* f) noexcept {
    for (auto& s : fibers) {
        if (s.f == f) {
            __tsan_destroy_fiber(s.fiber);
            s.fiber = __tsan_create_fiber(0);
            return s.fiber;
        }
    }
    for (auto& s : fibers) {
        if (s.f == nullptr) {
            s.f = f;
            s.fiber = __tsan_create_fiber(0);
            return s.fiber;
        }
    }
    return __tsan_create_fiber(0);  // table full: leak one fiber object
}
#endif

// finish_switch() runs first thing on the incoming stack.
void finish_switch(frame* self) noexcept {
#if KAIROS_ASAN
    const void* lo = nullptr;
    std::size_t size = 0;
    __sanitizer_finish_switch_fiber(self->fake_stack, &lo, &size);
    if (boot.stack_lo == nullptr && lo != nullptr && running != &boot) {
        boot.stack_lo = lo;  // learn main's stack the first time we leave it
        boot.stack_size = size;
    }
#else
    (void)self;
#endif
}

extern "C" void frame_entry() {
    frame* self = running;
    finish_switch(self);
    kairos_host_thread_start(self->entry, self->arg);
}

}  // namespace

namespace kairos::port {

std::size_t min_stack_size() noexcept {
    // plus room for libc under makecontext
    return (sizeof(frame) + 15) / 16 * 16 + 4096 + host::thread_stack_extra();
}

void* stack_init(void* lo, std::size_t size, entry_fn entry, void* arg) noexcept {
    const auto top = reinterpret_cast<std::uintptr_t>(lo) + size;
    const std::uintptr_t at = (top - sizeof(frame)) & ~std::uintptr_t{15};
    auto* f = new (reinterpret_cast<void*>(at)) frame{};
    getcontext(&f->uc);
    f->uc.uc_stack.ss_sp = lo;
    f->uc.uc_stack.ss_size = at - reinterpret_cast<std::uintptr_t>(lo);
    f->uc.uc_link = nullptr;
    makecontext(&f->uc, frame_entry, 0);
    f->stack_lo = lo;
    f->stack_size = f->uc.uc_stack.ss_size;
    f->entry = entry;
    f->arg = arg;
#if KAIROS_TSAN
    f->tsan_fiber = fresh_fiber(f);
#endif
    return f;
}

const char* name() noexcept { return "host_ucontext"; }

}  // namespace kairos::port

namespace kairos::host {

void switch_now() noexcept {
    frame* cur = running;
    auto* next = static_cast<frame*>(kairos_sched_switch(cur));
    if (next == cur) return;
    running = next;
#if KAIROS_TSAN
    if (boot.tsan_fiber == nullptr) boot.tsan_fiber = __tsan_get_current_fiber();
    __tsan_switch_to_fiber(next->tsan_fiber, 0);
#endif
#if KAIROS_ASAN
    __sanitizer_start_switch_fiber(&cur->fake_stack, next->stack_lo, next->stack_size);
#endif
    swapcontext(&cur->uc, &next->uc);
    finish_switch(cur);
}

}  // namespace kairos::host

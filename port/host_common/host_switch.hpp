// SPDX-License-Identifier: MIT
// Internal to the host ports: the one function each host port supplies to
// host.cpp, which implements the rest of the port contract (virtual mask,
// signals, request_switch, idle) once for all of them.
#pragma once

#include <kairos/config.hpp>

#include <cstddef>

namespace kairos::host {

// switch_now() runs the port's switch routine: save the running context,
// call kairos_sched_switch(), restore the context it returns. Called by
// host.cpp with the virtual mask set, in thread context; returns (in the
// switched-out thread) when that thread is switched back in, mask still
// set, or, on a port with a direct switch (KAIROS_PORT_DIRECT_SWITCH, whose
// routines end as irq_restore(0)), cleared with nothing pending.
// The symbol has a C name so the x86-64 port can define it in assembly
// (an ordinary call into switch.S, no C++ wrapper in between).
void switch_now() noexcept asm("kairos_host_switch_now");

// thread_stack_extra() is what every thread stack needs on a host port
// besides the port's initial frame: the frame the OS pushes to deliver a
// signal (the CPU's register state: larger with AVX-512 or SVE), the signal
// entry around a handler, and idle()'s frames with libc's under them. The
// host ports add it to port::min_stack_size().
std::size_t thread_stack_extra() noexcept;

// register_stack(lo, size) tells the sanitizer support which stack a
// context handle belongs to (asm ports call it from stack_init); a no-op
// unless built with AddressSanitizer.
void register_stack(const void* lo, std::size_t size) noexcept;

// finish_switch() completes an AddressSanitizer stack switch on the
// incoming stack (host.cpp calls it right after switch_now() returns); a
// no-op without ASan, inline so that costs nothing per switch.
#if KAIROS_ASAN
void finish_switch() noexcept;
#else
inline void finish_switch() noexcept {}
#endif

}  // namespace kairos::host

extern "C" {
// kairos_host_unmask_step() is unmask() short of the switch (host.cpp):
// true, mask set, when a switch is due; false, mask cleared and nothing
// pending (or, in a handler, mask set). Mask set on entry. Also called by
// the asm routines that end unmasked.
bool kairos_host_unmask_step() noexcept;

// kairos_host_pick(handle) is what the asm switch routines call instead of
// kairos_sched_switch(): the same, plus telling AddressSanitizer about the
// stack it is about to switch to (nothing more without ASan).
void* kairos_host_pick(void* handle) noexcept;

// kairos_host_thread_start(entry, arg) is where a new thread's first switch
// lands (called by the asm entry trampolines kairos_x86_64_start and
// kairos_aarch64_start): it finishes the switch the way
// switch_now()'s caller would (deferred signals, mask cleared), then runs
// entry(arg), which never returns.
[[noreturn]] void kairos_host_thread_start(void (*entry)(void*), void* arg) noexcept;
}

// SPDX-License-Identifier: MIT
// kairos/detail/trace_hook.hpp: the trace event hook alone, for headers
// that emit events (deferred.hpp) without the kernel's headers; the rest
// of the trace interface is kairos/kernel/trace.hpp. Standard headers: <cstdint>.
#pragma once

#include <cstdint>

// KAIROS_TRACE: 1 compiles the trace hooks in (kernel/trace.hpp).
#ifndef KAIROS_TRACE
#  define KAIROS_TRACE 0
#endif

namespace kairos::kernel::trace {

// event: what a record says. thread is the pid of the running thread when
// the event happened (0: the boot context or an interrupt before run(),
// 0xFFFF: the kernel's idle context); object and argument as listed.
enum class event : std::uint8_t {
    switch_in = 1,   // object: the pid switched away from; thread: the one switched in
    ready = 2,       // object: the pid made runnable
    blocked = 3,     // object: what it waits for (mutex/message address, flag mask, 0: sleep);
                     // argument: the thread_state it blocked in
    isr_enter = 4,   // object: the interrupt number (host: the signal)
    isr_exit = 5,    // object: the interrupt number
    msg_send = 6,    // object: the receiving pid; argument: the message type
    msg_receive = 7, // object: the sending pid; argument: the message type
    flags_set = 8,   // object: the pid; argument: the flags set (low 16 bits)
    mutex_lock = 9,  // object: the mutex address; argument: the new owner's pid
    mutex_unlock = 10,   // object: the mutex address
    deferred_start = 11, // object: the deferred function's slot address
    deferred_end = 12,   // object: as deferred_start
    thread_create = 13,  // object: the new pid; argument: its priority
};

#if KAIROS_TRACE
// emit(e, object, arg) records one event. Context: any.
void emit(event e, std::uint32_t object, std::uint32_t arg) noexcept;

#  define KAIROS_TRACE_EVENT(e, object, arg)                                            \
    ::kairos::kernel::trace::emit(::kairos::kernel::trace::event::e,                      \
                                  static_cast<std::uint32_t>(object),                     \
                                  static_cast<std::uint32_t>(arg))
#else
#  define KAIROS_TRACE_EVENT(e, object, arg) static_cast<void>(0)
#endif


}  // namespace kairos::kernel::trace

// Interrupt entry and exit, for ports and boards that dispatch interrupts
// (n: the interrupt number). Context: the interrupt.
#define KAIROS_TRACE_ISR_ENTER(n) KAIROS_TRACE_EVENT(isr_enter, n, 0)
#define KAIROS_TRACE_ISR_EXIT(n) KAIROS_TRACE_EVENT(isr_exit, n, 0)

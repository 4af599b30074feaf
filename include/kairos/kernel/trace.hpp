// SPDX-License-Identifier: MIT
// kairos/kernel/trace.hpp: scheduler trace events, per-thread statistics and
// a ps-style thread listing (docs/trace.md).
//
// KAIROS_TRACE (CMake option of the same name, a PUBLIC definition of
// kairos::kairos like the kernel sizes) compiles the hooks in. At 0 (the
// default) every KAIROS_TRACE_* macro expands to nothing that evaluates its
// arguments, so the kernel's code is the same as without this header. At 1
// each hook is one call to emit() (src/trace.cpp), which records
//   { timestamp (port::now_us()), event, thread, object, argument }
// in a fixed ring of KAIROS_TRACE_RING records and updates the per-thread
// statistics on switches.
//
// The ring is kairos::spsc_ring. Its producers are every thread and every
// interrupt of the one core, so emit() pushes with interrupts masked
// (port::irq_disable(), the kernel's one lock; most hook sites hold it
// already, where it costs a nested save and restore): that makes the
// producers one at a time, as the ring requires. mpsc_ring would let
// producers run unmasked, at a read-modify-write per push, and on the cores
// without CAS (ARMv6-M, lx106, rv32imc) it masks anyway. A full ring drops
// the record and counts it (dropped()). The consumer is one thread (or the
// boot context after run() returns) at a time, calling drain().
#pragma once

#include <kairos/detail/trace_hook.hpp>
#include <kairos/kernel/config.hpp>
#include <kairos/kernel/thread.hpp>

#include <cstddef>
#include <cstdint>

// KAIROS_TRACE_RING: records the ring holds (a power of two).
#ifndef KAIROS_TRACE_RING
#  define KAIROS_TRACE_RING 256
#endif

namespace kairos::kernel::trace {

// record: one event, 16 bytes, word-aligned. The timestamp is 48 bits of
// port::now_us() (ts_hi:ts_lo; it wraps after about 8.9 years); object
// holds the low 32 bits of an address, arg the low 16 bits of a value.
struct record {
    std::uint32_t ts_lo;
    std::uint16_t ts_hi;
    std::uint16_t thread;
    std::uint32_t object;
    std::uint16_t arg;
    event type;
    std::uint8_t reserved;
    std::uint64_t ts_us() const noexcept { return std::uint64_t{ts_hi} << 32 | ts_lo; }
};
static_assert(sizeof(record) == 16, "a trace record is 16 bytes");

// thread_stats: what the kernel counted for one thread while traced.
struct thread_stats {
    std::uint64_t cpu_us;     // time it was the running thread (switch timestamps)
    std::uint32_t switches;   // times it was switched in
};

#if KAIROS_TRACE
// drain(sink) removes every queued record and passes each as one text
// line (docs/trace.md, "Dump format") to sink; returns how many. Context:
// the one consumer (a thread, or the boot context after run()).
std::size_t drain(void (*sink)(const char* line)) noexcept;

// dump_header(sink) writes the lines naming every live thread (pid, name,
// priority) and the clock; dump_footer(sink) the drop count and the
// kernel's switch count. Context: thread.
void dump_header(void (*sink)(const char* line)) noexcept;
void dump_footer(void (*sink)(const char* line)) noexcept;

// dropped(): records refused because the ring was full. switches(): all
// switches the kernel made since reset_stats() (recorded or not).
std::uint32_t dropped() noexcept;
std::uint32_t switches() noexcept;

// stats(p) is p's statistics; zero for a pid that names no live thread.
thread_stats stats(pid p) noexcept;

// reset_stats() zeroes the statistics and the switch count. Context: thread.
void reset_stats() noexcept;

#endif

// print_threads(sink) writes a ps-style listing of the live threads, one
// line each: pid, state, priority, stack used/size in bytes (high-water
// mark), switches and CPU % since reset_stats() ("-" without KAIROS_TRACE).
// Context: thread.
void print_threads(void (*sink)(const char* line)) noexcept;

}  // namespace kairos::kernel::trace

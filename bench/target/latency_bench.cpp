// SPDX-License-Identifier: MIT
// Interrupt-to-thread latency firmware (Cortex-M, lx106, RV32): how many instructions
// run from the first instruction of an interrupt handler that wakes a
// thread to the first instruction that thread executes after its blocking
// call returns. bench/target/collect-latency runs it under QEMU with the
// insncount plugin, marking each handler's entry and the instruction right
// after the waiter's one blocking call (found in the disassembly), and
// reports the plugin's count between the two.
//
// Two benches, each a kernel session of "main" at priority 7 and a waiter
// at 6 (more urgent) that blocks first:
//   latency.flags_isr  IRQ0's handler calls flags_set(waiter, 0x1); the
//                      waiter sits in flags_wait_any(0x3).
//   latency.msg_isr    IRQ1's handler calls try_send() to the waiter, which
//                      sits in receive().
// main pends the IRQ through NVIC_ISPR (no device: the entry is exact and
// nothing else interrupts), n times; on lx106 and RV32 both benches raise
// the software interrupt instead (the port's switch request, which the
// interrupt hook tells apart by a flag, as tests/target/kernel_target.cpp
// does), and the entry is the user vector (RV32: the trap entry). Each time the handler runs at once,
// its exception return tail-chains into PendSV, the waiter runs, counts
// the wake-up and blocks again, and main goes on. The waiter ends on flag
// 0x2 / message type 1. The firmware fails unless the waiter woke exactly
// n times per bench, in order with main's triggers.
//
// Output per bench: "latency <name> n <n> woken <w>".
#include <kairos/kernel/msg.hpp>
#include <kairos/kernel/thread.hpp>
#include <kairos/kernel/thread_flags.hpp>

#include <cstdint>

#include "soft_irq.hpp"
#include "target.hpp"

namespace k = kairos::kernel;

namespace {

constexpr std::uint32_t iterations = 100;
constexpr unsigned main_prio = 7, waiter_prio = 6;
constexpr std::size_t stack_size = 1024;

alignas(kairos::port::stack_align) unsigned char stacks[2][stack_size];
k::pid waiter = k::no_pid;
volatile std::uint32_t triggered, woken;  // main and waiter; compared after each trigger
bool out_of_order;

void irq0();
void irq1();

// pend(irq) raises the bench's interrupt irq (soft_irq.hpp); it is taken
// before pend() returns (thread, unmasked, the handler's priority is the
// lowest).
void pend(unsigned irq) {
    if (irq == 0) {
        ktarget::pend_irq<irq0>(0);
    } else {
        ktarget::pend_irq<irq1>(1);
    }
}

void count_wake() {
    woken = woken + 1;
    if (woken != triggered) out_of_order = true;  // the wake-up belongs to this trigger
}

}  // namespace

extern "C" {
// The waiters: each has exactly one call of its blocking function (the
// collector marks the instruction after that call).
__attribute__((noinline, used)) void kairos_latency_flags_waiter(void*) {
    for (;;) {
        if ((k::flags_wait_any(0x3) & 0x2) != 0) return;
        count_wake();
    }
}

__attribute__((noinline, used)) void kairos_latency_msg_waiter(void*) {
    k::msg m;
    for (;;) {
        k::receive(m);
        if (m.type == 1) return;
        count_wake();
    }
}

}

namespace {
void irq0() { k::flags_set(waiter, 0x1); }

void irq1() {
    k::msg m;
    m.value = triggered;
    (void)k::try_send(m, waiter);  // the waiter is in receive(): delivered
}
}  // namespace

#if !defined(__XTENSA__) && !defined(__riscv)
extern "C" void IRQ0_Handler() { irq0(); }
extern "C" void IRQ1_Handler() { irq1(); }
#endif

namespace {

struct bench {
    const char* name;
    void (*waiter_fn)(void*);
    unsigned irq;
    void (*stop)();
};

const bench* current;

void main_thread(void*) {
    waiter = k::thread_create(stacks[1], stack_size, waiter_prio, current->waiter_fn, nullptr,
                              "waiter");  // runs now, blocks
    if (waiter < 0) return;
    for (std::uint32_t i = 0; i < iterations; ++i) {
        triggered = triggered + 1;
        pend(current->irq);
        if (woken != triggered) out_of_order = true;  // woke before pend() returned
    }
    current->stop();
}

void run(const bench& b) {
    current = &b;
    triggered = 0;
    woken = 0;
    out_of_order = false;
    k::reset();
    if (k::thread_create(stacks[0], stack_size, main_prio, main_thread, nullptr, "main") < 0)
        kairos_port_panic("latency: main refused", __FILE__, __LINE__);
    k::run_options o;
    o.return_when_idle = true;
    if (k::run(o) != 0 || waiter < 0 || woken != iterations || out_of_order)
        kairos_port_panic("latency: the waiter did not wake once per interrupt", __FILE__, __LINE__);
    ktarget::print("latency ");
    ktarget::print(b.name);
    ktarget::print(" n ");
    ktarget::print_u64(iterations);
    ktarget::print(" woken ");
    ktarget::print_u64(woken);
    ktarget::print("\n");
}

}  // namespace

int main() {
    static const bench benches[] = {
        {"latency.flags_isr", kairos_latency_flags_waiter, 0, [] { k::flags_set(waiter, 0x2); }},
        {"latency.msg_isr", kairos_latency_msg_waiter, 1,
         [] {
             k::msg m;
             m.type = 1;
             k::send(m, waiter);
         }},
    };
    for (const bench& b : benches) run(b);
    return 0;
}

// SPDX-License-Identifier: MIT
// Tickless idle figures (bench/target/collect-idle, docs/targets.md): the
// core timer's interrupts per second of virtual time while the kernel
// idles, and the instructions from the timer interrupt's entry to the
// woken thread running.
//   sleep_1s  one thread sleeps 1 s, ten times: interrupts / 10 s (target 1)
//   none      one thread sleeps 20 s: the interrupts before the one at its
//             deadline / 20 s: what the port takes while nothing is due
//             (target 0)
// The firmware prints "idle <name> <interrupts> <elapsed µs>" per scenario
// (port::timer_interrupts(), now_us()); kairos_bench_window() brackets each
// scenario and kairos_bench_mark() follows each 1 s sleep's return, so the
// insncount plugin counts the same interrupts and the wake-up cost
// independently.
#include <kairos/board.hpp>
#include <kairos/kernel/thread.hpp>
#include <kairos/port.hpp>

#include <cstdint>

#include "target.hpp"

namespace k = kairos::kernel;

extern "C" __attribute__((noinline, used)) void kairos_bench_mark() { asm volatile("" ::: "memory"); }
extern "C" __attribute__((noinline, used)) void kairos_bench_window() { asm volatile("" ::: "memory"); }

namespace {

constexpr std::size_t stack_size = 1024;
alignas(kairos::port::stack_align) unsigned char stack[stack_size];

// report(name, irqs, us) prints "idle <name> <irqs> <us>" as one line.
void report(const char* name, std::uint32_t irqs, std::uint64_t us) {
    char line[80] = "idle ";
    char* p = line + 5;
    for (const char* c = name; *c != '\0'; ++c) *p++ = *c;
    *p++ = ' ';
    p = kairos::detail::put_decimal(p, irqs);
    *p++ = ' ';
    p = kairos::detail::put_decimal(p, us);
    *p++ = '\n';
    *p = '\0';
    ktarget::print(line);
}

void bench_thread(void*) {
    kairos_bench_window();
    std::uint32_t irq0 = kairos::port::timer_interrupts();
    std::uint64_t t0 = kairos::port::now_us();
    for (int i = 0; i < 10; ++i) {
        k::sleep_us(1000000);
        kairos_bench_mark();
    }
    std::uint32_t irqs = kairos::port::timer_interrupts() - irq0;
    std::uint64_t t1 = kairos::port::now_us();
    kairos_bench_window();
    report("sleep_1s", irqs, t1 - t0);

    kairos_bench_window();
    irq0 = kairos::port::timer_interrupts();
    t0 = kairos::port::now_us();
    k::sleep_us(20000000);
    irqs = kairos::port::timer_interrupts() - irq0;
    t1 = kairos::port::now_us();
    kairos_bench_window();
    report("none", irqs - 1, t1 - t0);  // without the interrupt at the deadline
}

}  // namespace

int main() {
    if (k::thread_create(stack, stack_size, 4, bench_thread, nullptr, "idle bench") < 0) return 1;
    k::run_options o;
    o.return_when_idle = true;
    return k::run(o) == 0 ? 0 : 2;
}

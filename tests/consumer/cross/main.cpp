// SPDX-License-Identifier: MIT
// A firmware shaped like a vendor project: its own vector table and
// Reset_Handler, kairos through its installed package. Two threads share a
// mutex and pass values through a ring; a deferred function runs in main's
// thread. Built, not run (the QEMU-run firmware lives in tests/target).
#include <kairos/deferred.hpp>
#include <kairos/kernel/mutex.hpp>
#include <kairos/kernel/thread.hpp>
#include <kairos/port.hpp>
#include <kairos/spsc_ring.hpp>

#include <cortex_m.hpp>  // the Cortex-M port's own header: installed with the package

#include <cstddef>
#include <cstdint>

extern "C" {
extern std::uint32_t _sidata[], _sdata[], _edata[], _sbss[], _ebss[], _estack[];
[[noreturn]] void Reset_Handler();
void Default_Handler() {
    for (;;) {
    }
}
// Every exception kairos does not define falls to Default_Handler; the
// port's strong definitions (PendSV_Handler, ...) replace these when linked.
#define FW_WEAK_HANDLER(name) void name() __attribute__((weak, alias("Default_Handler")))
FW_WEAK_HANDLER(NMI_Handler);
FW_WEAK_HANDLER(HardFault_Handler);
FW_WEAK_HANDLER(SVC_Handler);
FW_WEAK_HANDLER(PendSV_Handler);
FW_WEAK_HANDLER(SysTick_Handler);
#undef FW_WEAK_HANDLER
}

// The C library's part a firmware without one supplies (a project linking
// newlib or picolibc has these): GCC emits calls to them for struct and
// array initialization. The attribute keeps GCC from turning the loops back
// into calls to themselves.
#define FW_RUNTIME_FN extern "C" __attribute__((optimize("no-tree-loop-distribute-patterns")))
FW_RUNTIME_FN void* memset(void* dst, int c, std::size_t n) {
    auto* d = static_cast<unsigned char*>(dst);
    while (n--) *d++ = static_cast<unsigned char>(c);
    return dst;
}
FW_RUNTIME_FN void* memcpy(void* dst, const void* src, std::size_t n) {
    auto* d = static_cast<unsigned char*>(dst);
    const auto* s = static_cast<const unsigned char*>(src);
    while (n--) *d++ = *s++;
    return dst;
}
#undef FW_RUNTIME_FN

namespace {
using vector = void (*)();
}  // namespace

extern "C" __attribute__((section(".isr_vector"), used)) const vector fw_vectors[16] = {
    reinterpret_cast<vector>(_estack), Reset_Handler, NMI_Handler, HardFault_Handler,
    nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
    SVC_Handler, nullptr, nullptr, PendSV_Handler, SysTick_Handler,
};

int firmware_main();

namespace {
kairos::spsc_ring<int, 8> ring;
kairos::deferred<4, 1> later;
kairos::kernel::mutex lock;
int sum = 0;
alignas(kairos::port::stack_align) unsigned char stacks[2][1024];

void producer(void*) {
    for (int i = 1; i <= 4; ++i) {
        while (!ring.try_push(i)) kairos::kernel::yield();
    }
}

void consumer(void*) {
    for (int got = 0; got < 4;) {
        int v = 0;
        if (!ring.try_pop(v)) {
            kairos::kernel::yield();
            continue;
        }
        lock.lock();
        sum += v;
        lock.unlock();
        ++got;
    }
    (void)later.schedule([] { sum += 100; });
}
}  // namespace

int firmware_main() {
    const kairos::port::irq_state s = kairos::port::irq_disable();
    kairos::port::irq_restore(s);
    kairos::kernel::thread_create(stacks[0], sizeof stacks[0], 1, producer, nullptr, "producer");
    kairos::kernel::thread_create(stacks[1], sizeof stacks[1], 2, consumer, nullptr, "consumer");
    kairos::kernel::run_options o;
    o.return_when_idle = true;
    kairos::kernel::run(o);
    later.run();
    return sum == 110 ? 0 : 1;
}

extern "C" void Reset_Handler() {
    for (std::uint32_t *src = _sidata, *dst = _sdata; dst < _edata;) *dst++ = *src++;
    for (std::uint32_t* p = _sbss; p < _ebss;) *p++ = 0;
    static_cast<void>(firmware_main());
    for (;;) {
    }
}

// SPDX-License-Identifier: MIT
// The application side of the vendor-shaped firmware: two kairos threads
// pass a sequence through an spsc_ring, the producer sleeping on the tick
// that the vendor's own SysTick_Handler forwards with kairos_tick(); the
// consumer adds each value to a sum under a kernel mutex and, at the end,
// schedules a deferred function that main runs. Passes (exit 0, "vendor_style:
// ok") when every value arrived once, in order, the sum and the deferred
// function are right, and the vendor handler ran.
#include <kairos/deferred.hpp>
#include <kairos/kernel/mutex.hpp>
#include <kairos/kernel/thread.hpp>
#include <kairos/port.hpp>
#include <kairos/spsc_ring.hpp>

#include <cstdint>

extern "C" volatile std::uint32_t vendor_systicks;

namespace {

namespace k = kairos::kernel;

constexpr std::uint32_t count = 2000;
kairos::spsc_ring<std::uint32_t, 16> ring;
std::uint32_t received = 0;
bool in_order = true;
kairos::kernel::mutex sum_lock;
std::uint32_t sum = 0;
kairos::deferred<4, 1> later;
bool later_ran = false;
alignas(8) unsigned char producer_stack[2048];
alignas(8) unsigned char consumer_stack[2048];

void producer(void*) {
    for (std::uint32_t i = 1; i <= count; ++i) {
        while (!ring.try_push(i)) k::yield();
        if (i % 256 == 0) k::sleep_us(1500);  // at least one SysTick period
    }
}

void consumer(void*) {
    while (received < count) {
        std::uint32_t v;
        if (!ring.try_pop(v)) {
            k::yield();
            continue;
        }
        if (v != received + 1) in_order = false;
        received = v;
        sum_lock.lock();
        sum += v;
        sum_lock.unlock();
    }
    if (!later.schedule([] { later_ran = true; })) in_order = false;
}

}  // namespace

int main() {
    k::thread_create(producer_stack, sizeof producer_stack, 1, producer, nullptr, "producer");
    k::thread_create(consumer_stack, sizeof consumer_stack, 1, consumer, nullptr, "consumer");
    k::run_options o;
    o.return_when_idle = true;
    k::run(o);
    later.run();
    const bool ok = received == count && in_order && sum == count * (count + 1) / 2 && later_ran &&
                    vendor_systicks > 0;
    kairos::port::console_write(ok ? "vendor_style: ok\n" : "vendor_style: FAILED\n");
    return ok ? 0 : 1;
}

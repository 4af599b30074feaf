// SPDX-License-Identifier: MIT
// `#include <circular_queue.h>` with EspSoftwareSerial's uses, compiled for
// the MCU targets (the lx106 build is freestanding: no <algorithm> or
// <functional>, so min is kairos' template and Delegate stores function
// pointers only) and on the host with -ffreestanding. Compiled, never run.
#include <circular_queue_mp.h>

#include <cstdint>

struct uart;

template std::size_t IRAM_ATTR circular_queue<std::uint32_t, uart*>::available() const;
template bool IRAM_ATTR circular_queue_mp<std::uint32_t, uart*>::push(std::uint32_t&&);
template void IRAM_ATTR delegate::detail::DelegateImpl<void*, void>::operator()() const;

struct uart {
    circular_queue<std::uint32_t, uart*> isr_buffer{8};
    const Delegate<void(std::uint32_t&&), uart*> for_each_del{
        [](uart* self, std::uint32_t&& tick) { self->last = tick; }, this};
    Delegate<void(), void*> rx_handler{[](void*) {}, nullptr};
    Delegate<int(int)> plain{[](int x) { return x + 1; }};
    std::uint32_t last = 0;

    std::uint32_t rx_bits() {
        isr_buffer.for_each(for_each_del);
        isr_buffer.for_each({[](uart* self, std::uint32_t&& t) { self->last = t; }, this});
        rx_handler();
        return min(last, static_cast<std::uint32_t>(plain(3)));
    }
};

// Freestanding, a capturing callable has no function-pointer form: it is
// not storable (a compile error at the use, never a hidden allocation).
struct capturing {
    int n;
    void operator()() const {}
};
static_assert(std::is_constructible_v<Delegate<void()>, capturing> == bool(__STDC_HOSTED__));
static_assert(std::is_constructible_v<Delegate<void()>, void (*)()>);

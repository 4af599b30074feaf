// SPDX-License-Identifier: MIT
// kairos/kernel/queue.hpp: a typed, bounded message queue between threads
// and interrupts (FreeRTOS xQueue, Zephyr k_msgq, RIOT mbox).
#pragma once

#include <kairos/kernel/thread.hpp>

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>

namespace kairos::kernel {

namespace impl {
struct tcb;
}

// queue_base is the logic of every queue<T, N>, compiled once in the
// library (src/queue.cpp) whatever T and N: elements are blocks of
// element_size bytes in a ring the derived queue<T, N> stores. Use it only
// through queue<T, N>, whose comments give the contract.
class queue_base {
public:
    queue_base(const queue_base&) = delete;
    queue_base& operator=(const queue_base&) = delete;

    // size() is the number of queued elements, capacity() N. Context: any
    // (a snapshot: other threads and interrupts change it).
    unsigned size() const noexcept { return count_; }
    unsigned capacity() const noexcept { return capacity_; }
    // dropped() counts sends that returned false: the queue stayed full
    // (try_send(), or send_for() at its deadline). Context: any.
    std::uint32_t dropped() const noexcept { return dropped_; }

protected:
    // element_ops moves elements of a type that is not trivially copyable:
    // construct(dst, src) move-constructs raw dst from *src, assign(dst,
    // src) move-assigns *dst from *src, destroy(p) ends *p. A queue of
    // trivially copyable elements has none: they are copied bytewise.
    struct element_ops {
        void (*construct)(void* dst, void* src) noexcept;
        void (*assign)(void* dst, void* src) noexcept;
        void (*destroy)(void* p) noexcept;
    };

    constexpr queue_base(unsigned char* storage, std::uint16_t element_size,
                         std::uint16_t capacity, const element_ops* ops) noexcept
        : buf_(storage), ops_(ops), element_size_(element_size), capacity_(capacity) {}
    ~queue_base() = default;

    // The operations of queue<T, N> on an element at item / out (see there).
    bool send_raw(void* item, std::uint64_t us) noexcept;
    bool receive_raw(void* out, std::uint64_t us) noexcept;
    // clear() destroys the queued elements (queue<T, N>'s destructor).
    void clear() noexcept;

private:
    unsigned char* slot(unsigned i) const noexcept { return buf_ + i * element_size_; }
    void construct(void* dst, void* src) const noexcept;
    void assign(void* dst, void* src) const noexcept;
    bool push(void* item) noexcept;
    void drop_oldest() noexcept;

    unsigned char* const buf_;
    const element_ops* const ops_;
    const std::uint16_t element_size_;
    const std::uint16_t capacity_;
    std::uint16_t head_ = 0;   // oldest element
    std::uint16_t count_ = 0;  // under the interrupt mask, as everything below
    std::uint32_t dropped_ = 0;
    impl::tcb* receivers_ = nullptr;  // waiting while empty, priority order
    impl::tcb* senders_ = nullptr;    // waiting while full, priority order
};

// queue<T, N> holds up to N elements of T in the object itself (no heap).
// send() copies into the queue, or straight into the first receiver
// waiting in receive() (the queue is then empty: order is kept); while the
// queue is full senders wait, and receive() refills the freed slot from the
// first of them. Waiters queue in priority order, FIFO among equal
// priorities; a waiter whose priority changes moves in the queue.
//
// T: trivially copyable (copied bytewise), or nothrow move-constructible
// and move-assignable (moved with its own operations). Elements are copied
// or moved with interrupts masked, so keep T small (a pointer to a larger
// buffer otherwise). Not movable (waiters refer to it); destroying it with
// threads waiting is undefined.
template <class T, std::size_t N>
class queue : public queue_base {
    static_assert(N >= 1 && N <= 0xFFFF, "queue: N must be 1..65535");
    static_assert(sizeof(T) <= 0xFFFF, "queue: an element must be under 64 KiB");
    static constexpr bool trivial = std::is_trivially_copyable_v<T>;
    static_assert(trivial || (std::is_nothrow_move_constructible_v<T> &&
                              std::is_nothrow_move_assignable_v<T>),
                  "queue: T must be trivially copyable or nothrow movable");

public:
    constexpr queue() noexcept
        : queue_base(storage_, static_cast<std::uint16_t>(sizeof(T)),
                     static_cast<std::uint16_t>(N), trivial ? nullptr : &ops) {}
    ~queue() {
        if constexpr (!std::is_trivially_destructible_v<T>) clear();
    }

    // send(item) queues item, waiting while the queue is full. Returns true.
    // Context: thread, interrupts enabled (assertion).
    bool send(T item) noexcept { return send_raw(&item, timeout_forever); }

    // send_for(item, us) is send() giving up after us microseconds of
    // port::now_us(): false at the deadline with the queue still full
    // (item not queued, counted in dropped()). send_for(item, 0) is
    // try_send(); us >= timeout_forever is send(). Context: thread,
    // interrupts enabled (assertion) unless us is 0.
    [[nodiscard]] bool send_for(T item, std::uint64_t us) noexcept {
        return send_raw(&item, us);
    }

    // send_until(item, deadline_us) is send_for(item, timeout_until(deadline_us)).
    [[nodiscard]] bool send_until(T item, std::uint64_t deadline_us) noexcept {
        return send_raw(&item, timeout_until(deadline_us));
    }

    // try_send(item) queues item or hands it to a waiting receiver without
    // blocking; false, counted in dropped(), if the queue is full. Context:
    // any (from an isr it only requests a switch).
    [[nodiscard]] bool try_send(T item) noexcept { return send_raw(&item, 0); }

    // receive(out) moves the oldest element into out, waiting while the
    // queue is empty. Context: thread, interrupts enabled (assertion).
    void receive(T& out) noexcept { (void)receive_raw(&out, timeout_forever); }

    // receive_for(out, us) is receive() giving up after us microseconds:
    // false at the deadline (out unchanged). receive_for(out, 0) is
    // try_receive(); us >= timeout_forever is receive(). Context: thread,
    // interrupts enabled (assertion) unless us is 0.
    [[nodiscard]] bool receive_for(T& out, std::uint64_t us) noexcept {
        return receive_raw(&out, us);
    }

    // receive_until(out, deadline_us) is receive_for(out, timeout_until(deadline_us)).
    [[nodiscard]] bool receive_until(T& out, std::uint64_t deadline_us) noexcept {
        return receive_raw(&out, timeout_until(deadline_us));
    }

    // try_receive(out) takes the oldest element if there is one. Context:
    // any.
    [[nodiscard]] bool try_receive(T& out) noexcept { return receive_raw(&out, 0); }

private:
    static constexpr element_ops ops{
        [](void* dst, void* src) noexcept { ::new (dst) T(std::move(*static_cast<T*>(src))); },
        [](void* dst, void* src) noexcept {
            *static_cast<T*>(dst) = std::move(*static_cast<T*>(src));
        },
        [](void* p) noexcept { static_cast<T*>(p)->~T(); },
    };

    alignas(T) unsigned char storage_[sizeof(T) * N] = {};
};

}  // namespace kairos::kernel

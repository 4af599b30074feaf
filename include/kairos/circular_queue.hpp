// SPDX-License-Identifier: MIT
// kairos/circular_queue.hpp: the ESP8266 / EspSoftwareSerial circular_queue
// API over the kairos rings.
//
// kairos::circular_queue<T, ForEachArg> (one producer, one consumer) and
// kairos::circular_queue_mp<T, ForEachArg> (any producers, one consumer) have
// a capacity chosen at run time. They are not second implementations: they
// run the spsc_ring and mpsc_ring algorithms (detail::spsc_core, mpsc_core)
// over a heap slot array, so every memory-order argument of docs/rings.md
// applies unchanged. The heap is touched only by the constructor,
// capacity(size_t) and the destructor, never by push or pop.
//
// Superset of the original API (push, pop, peek, pushpeek + push(),
// available, available_for_push, push_n, pop_n, flush, for_each and
// for_each_rev_requeue with a callable or a braced {fn, arg}, capacity,
// capacity(size_t)), plus try_push, try_emplace, try_pop, front,
// for_each_requeue. available() and push() are members of each queue class,
// so they can be explicitly instantiated as EspSoftwareSerial does. The
// Delegate type, IRAM_ATTR and min come with the compat header
// <circular_queue.h> (kairos::esp8266_compat). What differs from the
// original (docs/rings.md, "circular_queue compatibility"):
//   - for_each_requeue visits oldest first (FIFO); for_each_rev_requeue is
//     kept as a name only and does the same;
//   - slots hold raw storage: no T is built up front, dropped elements are
//     destroyed, T needs no default constructor unless pop()/peek()/
//     pushpeek() are used; try_pop() is the sentinel-free way to pop;
//   - capacity(size_t) and the move operations compile and work;
//   - the capacity is exact, slots are a power of two (index & mask, no %);
//   - each side reads the other side's index with acquire;
//   - circular_queue_mp publishes every slot on its own: no in-flight
//     counter to strand an element, no interrupt re-enabling; on cores
//     without CAS it masks with the port's PS/PRIMASK-restoring section.
#pragma once

#include <kairos/config.hpp>
#include <kairos/detail/ring_common.hpp>
#include <kairos/mpsc_ring.hpp>
#include <kairos/spsc_ring.hpp>

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>

namespace kairos {
namespace detail {

// heap_slots<Slot> is a run-time sized slot array: count() slots (a power
// of two, at least min_count), of which capacity() may be used. Empty
// (count() == 0) it points at one shared zero-filled dummy slot, so the ring
// cores need no null check: a zero sequence number and capacity() == 0 make
// every push fail and every pop find nothing, and nothing writes the dummy.
template <class Slot, std::size_t MinCount>
struct heap_slots {
    Slot* slots = &dummy;
    std::size_t mask_ = 0;
    std::size_t count_ = 0;
    std::size_t capacity_ = 0;

    std::size_t capacity() const noexcept { return capacity_; }
    std::size_t mask() const noexcept { return mask_; }
    std::size_t count() const noexcept { return count_; }
    Slot& at(std::size_t i) noexcept { return slots[i & mask_]; }
    const Slot& at(std::size_t i) const noexcept { return slots[i & mask_]; }

    // make(cap, max_count) allocates slots for cap elements; an empty store
    // when cap == 0, cap needs more than max_count slots, or the heap is
    // exhausted (no exceptions: nothrow new).
    static heap_slots make(std::size_t cap, std::size_t max_count) noexcept {
        heap_slots h;
        if (cap == 0 || cap > max_count) return h;
        std::size_t n = MinCount;
        while (n < cap) n <<= 1;
        Slot* p = new (std::nothrow) Slot[n];
        if (p == nullptr) return h;
        h.slots = p;
        h.mask_ = n - 1;
        h.count_ = n;
        h.capacity_ = cap;
        return h;
    }

    // release() frees the array (elements must already be destroyed).
    void release() noexcept {
        if (count_ != 0) delete[] slots;
        *this = heap_slots{};
    }

    static inline Slot dummy{};
};

// discard_out is an output iterator that drops what is assigned to it
// (pop_n(nullptr, n) and flush()).
struct discard_out {
    struct sink {
        template <class U>
        sink& operator=(U&&) noexcept {
            return *this;
        }
    };
    sink operator*() const noexcept { return {}; }
    discard_out& operator++() noexcept { return *this; }
};

// nondeduced_t<U> is U in a context where template arguments are not
// deduced, so (fn, arg) overloads take ForEachArg from fn alone and arg may be
// a derived-class pointer.
template <class U>
struct nondeduced {
    using type = U;
};
template <class U>
using nondeduced_t = typename nondeduced<U>::type;

// bound_call<R, A, V> is a function pointer plus the object it is called
// with: the allocation-free callback of EspSoftwareSerial, and what a braced
// {fn, arg} argument of for_each / for_each_requeue builds (fn may be a
// captureless lambda). Calling it with a null fn is a KAIROS_ASSERT.
template <class R, class A, class V>
struct bound_call {
    R (*fn)(A, V);
    A arg;

    R operator()(V v) const {
        KAIROS_ASSERT(fn != nullptr);  // for_each({nullptr, arg})
        return fn(arg, std::forward<V>(v));
    }
};

// queue_api<Core, T, ForEachArg> is the part of the ESP8266 API both queue
// kinds share: construction and resizing, the consumer side, and the
// counters. Core is spsc_core or mpsc_core over heap_slots.
template <class Core, class T, class ForEachArg>
class queue_api : protected Core {
    using index = typename Core::index_type;
    using slots_t = typename Core::slots_type;
    // The largest slot count: 2^(bits-2), what mpsc_core needs (index_fits).
    static constexpr std::size_t max_count = (static_cast<std::size_t>(index(~index(0))) >> 2) + 1;

public:
    using value_type = T;

    // ---- construction (not concurrent with any push or pop) ------------------

    queue_api() noexcept { this->reset_indices(0); }
    explicit queue_api(std::size_t cap) noexcept {
        this->slots_ = slots_t::make(cap, max_count);
        this->reset_indices(0);
    }
    queue_api(queue_api&& o) noexcept : queue_api() { this->swap_state(o); }
    queue_api& operator=(queue_api&& o) noexcept {
        if (this != &o) {
            clear_storage();
            this->swap_state(o);
        }
        return *this;
    }
    queue_api(const queue_api&) = delete;
    queue_api& operator=(const queue_api&) = delete;
    ~queue_api() { clear_storage(); }

    // capacity() is the maximum number of elements (exact, as requested).
    std::size_t capacity() const noexcept { return this->slots_.capacity(); }

    // capacity(cap) resizes to cap, keeping the queued elements in order.
    // False (nothing changes) when more than cap elements are queued or the
    // allocation fails. Not concurrent with any push or pop.
    bool capacity(std::size_t cap) noexcept {
        if (cap == capacity()) return true;
        if (this->size() > cap) return false;
        slots_t fresh = slots_t::make(cap, max_count);
        if (cap != 0 && fresh.count() == 0) return false;
        std::size_t n = 0;
        while (T* e = this->front()) {
            ::new (static_cast<void*>(fresh.at(n).get())) T(std::move(*e));  // nothrow
            Core::pop();
            ++n;
        }
        this->slots_.release();
        this->slots_ = fresh;
        this->reset_indices(0, n);
        return true;
    }

    // ---- consumer side ------------------------------------------------------

    using Core::empty;
    using Core::failed_pushes;
    using Core::front;
    using Core::size;
    using Core::try_pop;

    // available_for_push() is how many more pushes fit: capacity() minus
    // the slots queued or claimed by a push still in progress. Exact from a
    // sole producer, a snapshot elsewhere.
    std::size_t available_for_push() const noexcept { return capacity() - this->size(); }

    // pop() removes and returns the oldest element, or T{} when empty (the
    // original's sentinel; try_pop() tells the two apart).
    T pop() {
        T out{};
        (void)this->try_pop(out);
        return out;
    }

    // peek() returns a copy of the oldest element without removing it, or
    // T{} when empty. front() is the zero-copy form.
    T peek() const {
        const T* f = this->front();
        return f != nullptr ? T(*f) : T{};
    }

    // pop_n(buffer, n) moves up to n oldest elements to buffer (or drops
    // them when buffer is nullptr) and returns how many.
    std::size_t pop_n(T* buffer, std::size_t n) {
        return buffer != nullptr ? Core::pop_n(buffer, n) : Core::pop_n(discard_out{}, n);
    }

    // flush() drops every queued element.
    void flush() noexcept { (void)Core::pop_n(discard_out{}, ~std::size_t{0}); }

    // for_each(f) removes every element present and calls f(T&&) on each,
    // oldest first, freeing each slot after its call. f: any callable (a
    // lambda, a function pointer, the ESP8266 Delegate).
    template <class F>
    void for_each(F&& f) {
        (void)this->consume(f);
    }

    // for_each({fn, arg}) is for_each with fn(arg, T&&): the allocation-free
    // function-pointer-plus-object callback of EspSoftwareSerial, spelled as
    // the braced argument that builds the original's Delegate.
    template <class A = ForEachArg, std::enable_if_t<!std::is_void_v<A>, int> = 0>
    void for_each(bound_call<void, A, T&&> b) {
        (void)this->consume(b);
    }
    // for_each(fn, arg) is for_each({fn, arg}).
    template <class A = ForEachArg, std::enable_if_t<!std::is_void_v<A>, int> = 0>
    void for_each(void (*fn)(A, T&&), nondeduced_t<A> arg) {
        for_each(bound_call<void, A, T&&>{fn, arg});
    }

    // for_each_requeue(f) calls f(T&) on every element present, oldest
    // first; true keeps the element (in order, ahead of later pushes), false
    // removes it. Returns false when the queue was empty. f must not throw.
    template <class F>
    bool for_each_requeue(F&& f) {
        return visit_requeue(f);
    }

    // for_each_requeue({fn, arg}) is for_each_requeue with fn(arg, T&).
    template <class A = ForEachArg, std::enable_if_t<!std::is_void_v<A>, int> = 0>
    bool for_each_requeue(bound_call<bool, A, T&> b) {
        return visit_requeue(b);
    }
    // for_each_requeue(fn, arg) is for_each_requeue({fn, arg}).
    template <class A = ForEachArg, std::enable_if_t<!std::is_void_v<A>, int> = 0>
    bool for_each_requeue(bool (*fn)(A, T&), nondeduced_t<A> arg) {
        return for_each_requeue(bound_call<bool, A, T&>{fn, arg});
    }

    // for_each_rev_requeue(...) is the original's name; it visits oldest
    // first like for_each_requeue (the newest-first order was the defect).
    template <class... F>
    bool for_each_rev_requeue(F&&... f) {
        return for_each_requeue(std::forward<F>(f)...);
    }
    // for_each_rev_requeue({fn, arg}) is for_each_requeue({fn, arg}).
    template <class A = ForEachArg, std::enable_if_t<!std::is_void_v<A>, int> = 0>
    bool for_each_rev_requeue(bound_call<bool, A, T&> b) {
        return visit_requeue(b);
    }

protected:
    // visit_requeue(f) is for_each_requeue(f).
    template <class F>
    bool visit_requeue(F& f) {
        if (this->front() == nullptr) return false;
        (void)this->requeue(f);
        return true;
    }

    // clear_storage() destroys the elements and frees the slots.
    void clear_storage() noexcept {
        this->destroy_all();
        this->slots_.release();
        this->reset_indices(0);
    }
};

template <class T>
using spsc_heap_core = spsc_core<T, std::uint32_t, heap_slots<raw_slot<T>, 1>>;
template <class T, class Rmw>
using mpsc_heap_core =
    mpsc_core<T, std::uint32_t, heap_slots<seq_slot<T, std::uint32_t>, 2>, Rmw>;

}  // namespace detail

// circular_queue<T, ForEachArg> is a single-producer single-consumer FIFO
// with a run-time capacity. Producer side (one context, ISR/signal safe,
// wait-free): push, try_push, try_emplace, push_n, pushpeek + push().
// Consumer side (one context, ISR/signal safe, wait-free): pop, try_pop,
// front, peek, pop_n, flush, for_each, for_each_requeue. available() is
// exact from the consumer, available_for_push() from the producer.
template <class T, class ForEachArg = void>
class circular_queue : public detail::queue_api<detail::spsc_heap_core<T>, T, ForEachArg> {
    using api = detail::queue_api<detail::spsc_heap_core<T>, T, ForEachArg>;
    static_assert(std::is_nothrow_move_constructible_v<T>,
                  "circular_queue: T must be nothrow move constructible");

public:
    // circular_queue() is a valid queue of capacity 0 (every push fails).
    circular_queue() noexcept = default;
    // circular_queue(cap) allocates room for cap elements; on allocation
    // failure (or cap above 2^30) the capacity is 0.
    explicit circular_queue(std::size_t cap) noexcept : api(cap) {}
    // Moving takes the elements, the slots and a pending pushpeek() element;
    // o is left with capacity 0. Not concurrent with any push or pop.
    circular_queue(circular_queue&& o) noexcept : api(std::move(o)) { take_pending(o); }
    circular_queue& operator=(circular_queue&& o) noexcept {
        if (this != &o) {
            clear_pending();
            api::operator=(std::move(o));
            take_pending(o);
        }
        return *this;
    }
    ~circular_queue() { clear_pending(); }

    using api::push_n;
    using api::try_emplace;
    using api::try_push;

    // available() is how many elements pop() can return: exact from the
    // consumer, a snapshot from the producer. A member of this class (not
    // of its base) so that it can be explicitly instantiated, as
    // EspSoftwareSerial does to place it in IRAM.
    std::size_t available() const noexcept { return this->size(); }

    // peek() returns a copy of the oldest element without removing it. When
    // the queue is empty it returns the element pushpeek() is building (as
    // the original, whose empty peek() reads the slot pushpeek() fills), or
    // T{} when none is pending. That read is of producer state: it needs
    // the producer not to run meanwhile (the same context, as in
    // EspSoftwareSerial, or otherwise ordered).
    T peek() const {
        if (const T* f = this->front()) return *f;
        return pending_ ? *scratch_.get() : T{};
    }

    // push(v) copies v in; false (counted) when full.
    bool push(const T& v) noexcept(std::is_nothrow_copy_constructible_v<T>) {
        return this->try_push(v);
    }
    // push(v) moves v in; false (counted, v untouched) when full.
    bool push(T&& v) noexcept { return this->try_push(std::move(v)); }

    // push_n(buffer, n) copies up to n elements in with one index store and
    // returns how many.
    std::size_t push_n(const T* buffer, std::size_t n) { return api::push_n(buffer, n); }

    // pushpeek() returns the element the next push() will commit, built as
    // T{} on first use, so it can be filled in place over several calls.
    T& pushpeek() noexcept(std::is_nothrow_default_constructible_v<T>) {
        if (!pending_) {
            ::new (static_cast<void*>(scratch_.get())) T();
            pending_ = true;
        }
        return *scratch_.get();
    }

    // push() commits the pushpeek() element; false (counted) when full, and
    // the element stays pending.
    bool push() noexcept(std::is_nothrow_default_constructible_v<T>) {
        T& v = pushpeek();
        if (!this->try_push(std::move(v))) return false;
        v.~T();
        pending_ = false;
        return true;
    }

private:
    void take_pending(circular_queue& o) noexcept {
        if (!o.pending_) return;
        ::new (static_cast<void*>(scratch_.get())) T(std::move(*o.scratch_.get()));
        pending_ = true;
        o.clear_pending();
    }
    void clear_pending() noexcept {
        if (pending_) scratch_.get()->~T();
        pending_ = false;
    }

    // pushpeek() state: producer-only.
    detail::raw_slot<T> scratch_;
    bool pending_ = false;
};

// circular_queue_mp<T, ForEachArg, Rmw> is the multi-producer form: any number of
// producers (threads, ISRs) push concurrently and lock-free, each slot
// published on its own (see mpsc_ring); one consumer as in circular_queue.
// pushpeek()/push() do not exist here (a peeked slot would be shared).
// available(), for_each and try_pop stop at the first slot claimed but not
// yet published ("transiently empty"); available_for_push() counts that
// slot and the ones behind it as used. Rmw: how producers claim, as for
// mpsc_ring (kairos/rmw.hpp; the default is the target's).
template <class T, class ForEachArg = void, class Rmw = rmw_default>
class circular_queue_mp
    : public detail::queue_api<detail::mpsc_heap_core<T, Rmw>, T, ForEachArg> {
    using api = detail::queue_api<detail::mpsc_heap_core<T, Rmw>, T, ForEachArg>;
    static_assert(std::is_nothrow_move_constructible_v<T>,
                  "circular_queue_mp: T must be nothrow move constructible");

public:
    // circular_queue_mp() is a valid queue of capacity 0.
    circular_queue_mp() noexcept = default;
    // circular_queue_mp(cap) allocates room for cap elements (at least two
    // slots); capacity 0 on allocation failure or cap above 2^30.
    explicit circular_queue_mp(std::size_t cap) noexcept : api(cap) {}
    circular_queue_mp(circular_queue_mp&&) noexcept = default;
    circular_queue_mp& operator=(circular_queue_mp&&) noexcept = default;
    ~circular_queue_mp() = default;

    using api::try_emplace;
    using api::try_pop_strong;
    using api::try_push;

    // available() is how many elements pop() can return now: the published
    // elements up to the first push still in progress (pushes finishing
    // meanwhile only add). Exact from the consumer, a snapshot elsewhere.
    // O(available()): one acquire load per element; empty() is the O(1)
    // test for "pop() returns an element". A member of this class so that
    // it can be explicitly instantiated.
    std::size_t available() const noexcept {
        return this->published_run(
            this->cons_.tail.load(std::memory_order_relaxed));  // the consumer's index
    }

    // push(v) copies v in; false (counted) when full. Lock-free.
    bool push(const T& v) noexcept(std::is_nothrow_copy_constructible_v<T>) {
        return this->try_push(v);
    }
    // push(v) moves v in; false (counted, v untouched) when full. Lock-free.
    bool push(T&& v) noexcept { return this->try_push(std::move(v)); }

    // push_n(buffer, n) claims up to n slots with one CAS, copies into them
    // and returns how many. Requires a nothrow copy of T.
    std::size_t push_n(const T* buffer, std::size_t n) noexcept { return api::push_n(buffer, n); }
};

}  // namespace kairos

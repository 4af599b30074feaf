// SPDX-License-Identifier: MIT
// model.hpp compiles the unmodified kairos ring headers against the Relacy
// memory-model checker: std::atomic<T> in them becomes model_atomic<T> (a
// Relacy atomic), every memory_order argument becomes Relacy's, and
// new/delete go through Relacy's replaced global operators (the build adds
// -fno-sized-deallocation so sized delete[] reaches them too).
#pragma once

// Every standard header the rings include comes first, real: Relacy's
// std namespace additions conflict with libstdc++ 12's <atomic> (pulled in
// by <memory>), so this harness maps only what it needs below.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

#include <relacy/relacy.hpp>

// Relacy's `new`/`delete` macros would turn `= delete` and placement new
// into syntax errors; its replaced global operators still see every
// allocation.
#undef new
#undef delete

namespace kairos_model {

// model_atomic<T> is a Relacy atomic. One built outside a simulation (a
// static, such as circular_queue's shared empty-store slot, constructed
// before main) is a constant for the model: it answers loads with its
// initial value and must never be written, which the rings promise for it.
template <class T>
class model_atomic {
public:
    model_atomic() noexcept : model_atomic(T()) {}
    model_atomic(T v) noexcept : init_(v), live_(rl::is_ctx()) {
        if (live_) ::new (static_cast<void*>(&a_)) rl::atomic<T>(v);
    }
    ~model_atomic() {
        if (live_) a().~atomic();
    }
    model_atomic(const model_atomic&) = delete;
    model_atomic& operator=(const model_atomic&) = delete;

    T load(rl::memory_order mo, rl::debug_info_param i) const {
        return live_ ? a().load(mo, i) : init_;
    }
    void store(T v, rl::memory_order mo, rl::debug_info_param i) { w().store(v, mo, i); }
    T exchange(T v, rl::memory_order mo, rl::debug_info_param i) { return w().exchange(v, mo, i); }
    T fetch_add(T v, rl::memory_order mo, rl::debug_info_param i) { return w().fetch_add(v, mo, i); }
    T fetch_or(T v, rl::memory_order mo, rl::debug_info_param i) { return w().fetch_or(v, mo, i); }
    bool compare_exchange_weak(T& c, T x, rl::memory_order mo, rl::debug_info_param i,
                               rl::memory_order fmo, rl::debug_info_param fi) {
        return w().compare_exchange_weak(c, x, mo, i, fmo, fi);
    }
    bool compare_exchange_strong(T& c, T x, rl::memory_order mo, rl::debug_info_param i,
                                 rl::memory_order fmo, rl::debug_info_param fi) {
        return w().compare_exchange_strong(c, x, mo, i, fmo, fi);
    }

private:
    rl::atomic<T>& a() const { return *std::launder(reinterpret_cast<rl::atomic<T>*>(&a_)); }
    rl::atomic<T>& w() {
        if (!live_) {
            std::fputs("model: a constant (pre-main) atomic was written\n", stderr);
            std::abort();
        }
        return a();
    }
    mutable std::aligned_storage_t<sizeof(rl::atomic<T>), alignof(rl::atomic<T>)> a_;
    T init_;
    bool live_;
};

}  // namespace kairos_model

namespace std {
using rl::mo_acq_rel;
using rl::mo_acquire;
using rl::mo_consume;
using rl::mo_relaxed;
using rl::mo_release;
using rl::mo_seq_cst;
template <class T>
using kairos_model_atomic = kairos_model::model_atomic<T>;
}  // namespace std

#define atomic kairos_model_atomic
#include <kairos/circular_queue.hpp>
#include <kairos/mpsc_ring.hpp>
#include <kairos/spsc_ring.hpp>
#include <kairos/spsc_slot_ring.hpp>
#undef atomic

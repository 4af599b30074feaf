// SPDX-License-Identifier: MIT
// fuzz_common.hpp: what the kairos fuzzers share: the model-mismatch check,
// an element type that makes leaks, double destruction and use after
// destruction visible to AddressSanitizer, and the input reader.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>

// FUZZ_CHECK(cond) aborts (a libFuzzer crash, the input saved as an
// artifact) when the code under test and its reference model disagree.
#define FUZZ_CHECK(cond)                                                                     \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            std::fprintf(stderr, "model mismatch: %s at %s:%d\n", #cond, __FILE__, __LINE__); \
            std::abort();                                                                    \
        }                                                                                    \
    } while (0)

namespace kfuzz {

// copy_hook, when set, runs at the start of every item copy: a push that
// copies its element runs it between claiming a slot and publishing it, which
// is where an interrupt handler can preempt a producer.
inline void (*copy_hook)(void* ctx) = nullptr;
inline void* copy_hook_ctx = nullptr;

// item is a ring element that owns a heap cell holding its value: a leaked
// element is a LeakSanitizer report, a double destruction a double free, a
// read of a destroyed or moved-from element a heap-use-after-free or a
// FUZZ_CHECK failure. Moves are nothrow, as every ring requires, and so is
// the copy (an allocation failure terminates), as mpsc push_n requires.
class item {
public:
    item() noexcept : cell_(new std::uint32_t(0)) {}
    explicit item(std::uint32_t v) : cell_(new std::uint32_t(v)) {}
    item(const item& o) noexcept : cell_(nullptr) {
        if (void (*hook)(void*) = std::exchange(copy_hook, nullptr)) {
            hook(copy_hook_ctx);  // one level: copies made inside the hook do not recurse
            copy_hook = hook;
        }
        cell_ = new std::uint32_t(o.value());
    }
    item(item&& o) noexcept : cell_(std::exchange(o.cell_, nullptr)) {}
    item& operator=(const item& o) {
        if (this != &o) {
            delete cell_;
            cell_ = new std::uint32_t(o.value());
        }
        return *this;
    }
    item& operator=(item&& o) noexcept {
        if (this != &o) {
            delete cell_;
            cell_ = std::exchange(o.cell_, nullptr);
        }
        return *this;
    }
    ~item() { delete cell_; }

    // value() is the element's value; a moved-from element has none.
    std::uint32_t value() const {
        FUZZ_CHECK(cell_ != nullptr);
        return *cell_;
    }

private:
    std::uint32_t* cell_;
};

// input reads the fuzzer's bytes; past the end every read is 0.
class input {
public:
    input(const std::uint8_t* data, std::size_t size) : fdp_(data, size) {}
    bool more() { return fdp_.remaining_bytes() != 0; }
    std::uint8_t byte() { return fdp_.ConsumeIntegral<std::uint8_t>(); }
    template <class T>
    T get() {
        return fdp_.ConsumeIntegral<T>();
    }
    // below(n) is a value in 0 .. n-1 (n > 0).
    std::size_t below(std::size_t n) { return byte() % n; }

private:
    FuzzedDataProvider fdp_;
};

// pick_start<Index>(in) is a ring's start index: 0, just below the wrap,
// or anywhere.
template <class Index>
Index pick_start(input& in) {
    switch (in.below(3)) {
    case 0: return 0;
    case 1: return static_cast<Index>(Index(0) - 1 - in.byte());
    default: return in.get<Index>();
    }
}

}  // namespace kfuzz

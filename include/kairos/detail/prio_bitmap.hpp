// SPDX-License-Identifier: MIT
// kairos/detail/prio_bitmap.hpp: bitmap of non-empty priority levels and
// the run queue built on it.
//
// Priority 0 is the highest. The bitmap has two encodings (RIOT PR #14722,
// seed 002):
//   clz  level p is bit (31 - p) of its word: the best level is one count-
//        leading-zeros, no isolate-lowest-bit step. For cores where CLZ is
//        an instruction (x86 lzcnt/bsr, AArch64, ARMv7-M, Xtensa nsau).
//   lsb  level p is bit p: the best level is the lowest set bit, which the
//        de Bruijn path of bits.hpp finds without libgcc calls (ARMv6-M).
// KAIROS_RUNQUEUE_CLZ (kernel/config.hpp) picks the kernel's encoding; both
// are templates so one test binary checks both. Up to 32 levels use one
// word; up to 1024 use a summary word over 32-level words (two scans).
#pragma once

#include <kairos/bits.hpp>
#include <kairos/detail/clist.hpp>

#include <cstdint>

namespace kairos::detail {

enum class prio_encoding : std::uint8_t { clz, lsb };

// word_code<E> maps an index 0..31 to its bit and finds the best index.
template <prio_encoding E>
struct word_code {
    static constexpr std::uint32_t bit(unsigned i) noexcept {
        return E == prio_encoding::clz ? (0x80000000u >> i) : (1u << i);
    }
    // first(w) returns the smallest index whose bit is set. Requires w != 0.
    // Always inline, scan included: it is the switch's decision, and -Os
    // would otherwise call one shared copy of the de Bruijn lsb (a call and
    // a return on every switch of ARMv6-M).
    __attribute__((always_inline, flatten)) static constexpr unsigned first(std::uint32_t w) noexcept {
        if constexpr (E == prio_encoding::clz) {
            return 31u - bits::hw::msb(w);  // compiles to one clz / lzcnt
        } else {
            return kairos::lsb(w);  // ctz, or de Bruijn without CLZ
        }
    }
};

// prio_bitmap<Levels, E> is the set of non-empty levels 0..Levels-1.
template <unsigned Levels, prio_encoding E>
class prio_bitmap {
    static_assert(Levels >= 1 && Levels <= 1024,
                  "prio_bitmap: between 1 and 1024 priority levels (two 32-bit levels)");
    static constexpr unsigned words = (Levels + 31) / 32;
    using code = word_code<E>;

    // word(p) and in_word(p) locate level p. With one word they are 0 and
    // p itself: levels are < 32 by precondition, so no index arithmetic or
    // masking is emitted on the run queue's hot paths.
    static constexpr unsigned word(unsigned p) noexcept { return words == 1 ? 0 : p / 32; }
    static constexpr unsigned in_word(unsigned p) noexcept { return words == 1 ? p : p % 32; }

public:
    static constexpr prio_encoding encoding = E;

    // set(p), clear(p), test(p): precondition p < Levels.
    void set(unsigned p) noexcept {
        w_[word(p)] |= code::bit(in_word(p));
        if constexpr (words > 1) w_[words] |= code::bit(p / 32);
    }
    void clear(unsigned p) noexcept {
        w_[word(p)] &= ~code::bit(in_word(p));
        if constexpr (words > 1) {
            if (w_[p / 32] == 0) w_[words] &= ~code::bit(p / 32);
        }
    }
    bool test(unsigned p) const noexcept { return (w_[word(p)] & code::bit(in_word(p))) != 0; }
    bool empty() const noexcept {
        if constexpr (words > 1) return w_[words] == 0;
        return w_[0] == 0;
    }
    // best() returns the highest-priority (smallest) set level. Requires
    // !empty(). Always inline, as first().
    __attribute__((always_inline)) unsigned best() const noexcept {
        if constexpr (words > 1) {
            const unsigned i = code::first(w_[words]);
            return i * 32 + code::first(w_[i]);
        } else {
            return code::first(w_[0]);
        }
    }
    // best_is(p) is true if p is the best set level; requires test(p) (a
    // yield's check that the running thread's own level is still the
    // best). With one word: clz, one scan and a compare (the set bit p
    // bounds the answer); lsb, a mask test of the levels below p, no scan.
    bool best_is(unsigned p) const noexcept {
        if constexpr (words == 1 && E == prio_encoding::lsb) {
            return (w_[0] & (code::bit(p) - 1u)) == 0;
        } else {
            return best() == p;
        }
    }
    // top() is the word best() scans first: the summary with more than one
    // word, else the only word. Zero exactly when empty().
    std::uint32_t top() const noexcept { return w_[words > 1 ? words : 0]; }
    // best_in(t) is best() from t, the value of top() the caller already
    // loaded and found non-zero. Always inline, as first().
    __attribute__((always_inline)) unsigned best_in(std::uint32_t t) const noexcept {
        if constexpr (words > 1) {
            const unsigned i = code::first(t);
            return i * 32 + code::first(w_[i]);
        } else {
            return code::first(t);
        }
    }
    // raw(i) exposes word i (tests check the bit order).
    std::uint32_t raw(unsigned i) const noexcept { return w_[i]; }

private:
    // The level words, then, with more than one, the summary: a bit per
    // non-empty word. One word is the whole object: nothing unused after it.
    std::uint32_t w_[words > 1 ? words + 1 : 1] = {};
};

// run_queue<Levels, E>: one FIFO clist per level plus the bitmap, so
// push, remove, rotate and best() are O(1).
template <unsigned Levels, prio_encoding E>
class run_queue {
public:
    void push_back(clist_node* n, unsigned prio) noexcept {
        lists_[prio].push_back(n);
        bits_.set(prio);
    }
    void remove(clist_node* n, unsigned prio) noexcept {
        if (lists_[prio].remove(n)) bits_.clear(prio);
    }
    // rotate(prio) moves the head of level prio to its tail. Requires the
    // level non-empty (the kernel rotates only the running thread's level).
    void rotate(unsigned prio) noexcept { lists_[prio].rotate(); }
    // rotate_past(n, prio) makes n, which is in level prio, that level's
    // tail (clist::rotate_past()).
    void rotate_past(const clist_node* n, unsigned prio) noexcept { lists_[prio].rotate_past(n); }
    // best() returns the head of the best non-empty level, or nullptr.
    clist_node* best() const noexcept { return any() ? best_level(bits_.top()).front() : nullptr; }
    // any() is true if some level is non-empty.
    bool any() const noexcept { return !bits_.empty(); }
    // best_unless(veto) is best(), or nullptr also when veto is ~0u; veto
    // must be 0 or ~0u. One test decides both (the switch's common case:
    // something runnable and no reason for the slow path). Always inline.
    __attribute__((always_inline)) clist_node* best_unless(std::uint32_t veto) const noexcept {
        const std::uint32_t t = bits_.top() & ~veto;
        if (t == 0) return nullptr;
        clist_node* n = best_level(t).front();
        if (n == nullptr) __builtin_unreachable();  // a set bit is a non-empty level
        return n;
    }
    // best_is(prio) is true if level prio, which must be non-empty, is the
    // best non-empty level.
    bool best_is(unsigned prio) const noexcept { return bits_.best_is(prio); }
    // best_prio() returns the best non-empty level, or Levels if none.
    unsigned best_prio() const noexcept { return bits_.empty() ? Levels : bits_.best(); }
    const clist& level(unsigned prio) const noexcept { return lists_[prio]; }

private:
    // best_level(t) is the list of the best level, t being bits_.top() (or
    // a copy of it the caller tested non-zero). Without CLZ and with one
    // lsb-encoded word, the de Bruijn table gives the list's byte offset
    // directly (bits::sw::lsb_times): no scaling of the level on the
    // switch's path.
    __attribute__((always_inline)) const clist& best_level(std::uint32_t t) const noexcept {
        if constexpr (E == prio_encoding::lsb && Levels <= 32 && !KAIROS_HAS_CLZ) {
            const unsigned off = bits::sw::lsb_times<sizeof(clist)>(t);
            return *reinterpret_cast<const clist*>(reinterpret_cast<const unsigned char*>(lists_) + off);
        } else {
            return lists_[bits_.best_in(t)];
        }
    }

    // The lists first, so a level's list is addressed from the object's
    // own address; where load offsets are narrow (KAIROS_NARROW_LOAD_OFFSETS)
    // the bitmap first instead: every decision reads it, and at the
    // object's start it stays within short offsets of a base that also
    // reaches the fields before it (kernel_impl.hpp sched_core).
#if KAIROS_NARROW_LOAD_OFFSETS
    prio_bitmap<Levels, E> bits_;
    clist lists_[Levels];
#else
    clist lists_[Levels];
    prio_bitmap<Levels, E> bits_;
#endif
};

}  // namespace kairos::detail

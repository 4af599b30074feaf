// SPDX-License-Identifier: MIT
// The run-queue bitmap in both encodings (seed 002: reversed order for a
// one-instruction CLZ, natural order for the lsb path), one and two words,
// against a reference, plus the run queue's FIFO and O(1) removal.
#include <gtest/gtest.h>

#include <kairos/detail/prio_bitmap.hpp>
#include <kairos/kernel/config.hpp>

#include <set>

#include "ktest.hpp"

namespace {

using kairos::detail::clist_node;
using kairos::detail::prio_bitmap;
using kairos::detail::prio_encoding;
using kairos::detail::run_queue;

template <unsigned L, prio_encoding E>
struct cfg {
    static constexpr unsigned levels = L;
    static constexpr prio_encoding enc = E;
};

template <class C>
class bitmap : public ::testing::Test {};
using configs = ::testing::Types<cfg<32, prio_encoding::clz>, cfg<32, prio_encoding::lsb>,
                                 cfg<16, prio_encoding::clz>, cfg<256, prio_encoding::clz>,
                                 cfg<256, prio_encoding::lsb>, cfg<1024, prio_encoding::lsb>>;
TYPED_TEST_SUITE(bitmap, configs);

TYPED_TEST(bitmap, matches_reference_set) {
    prio_bitmap<TypeParam::levels, TypeParam::enc> b;
    std::set<unsigned> ref;
    ktest::rng r(42);
    EXPECT_TRUE(b.empty());
    for (int i = 0; i < 20000; ++i) {
        const unsigned p = r.next32() % TypeParam::levels;
        if (r.next32() & 1) {
            b.set(p);
            ref.insert(p);
        } else {
            b.clear(p);
            ref.erase(p);
        }
        ASSERT_EQ(b.empty(), ref.empty());
        if (!ref.empty()) {
            ASSERT_EQ(b.best(), *ref.begin());
        }
        ASSERT_EQ(b.test(p), ref.count(p) == 1);
        const unsigned q = r.next32() % TypeParam::levels;
        if (ref.count(q) == 1) {
            ASSERT_EQ(b.best_is(q), *ref.begin() == q) << q;
        }
    }
}

TEST(bitmap_encoding, clz_is_reversed_lsb_is_natural) {
    prio_bitmap<32, prio_encoding::clz> c;
    prio_bitmap<32, prio_encoding::lsb> l;
    c.set(0);
    l.set(0);
    EXPECT_EQ(c.raw(0), 0x80000000u);  // priority 0 is the MSB: clz() == 0
    EXPECT_EQ(l.raw(0), 0x1u);
    c.set(31);
    l.set(31);
    EXPECT_EQ(c.raw(0), 0x80000001u);
    EXPECT_EQ(c.best(), 0u);
    EXPECT_EQ(l.best(), 0u);
}

TEST(bitmap_encoding, kernel_uses_the_configured_one) {
    EXPECT_EQ(kairos::kernel::runqueue_encoding,
              KAIROS_RUNQUEUE_CLZ ? prio_encoding::clz : prio_encoding::lsb);
}

template <class C>
class runqueue : public ::testing::Test {};
TYPED_TEST_SUITE(runqueue, configs);

TYPED_TEST(runqueue, fifo_rotate_and_remove_anywhere) {
    run_queue<TypeParam::levels, TypeParam::enc> q;
    clist_node n[6];
    const unsigned lo = TypeParam::levels - 1, hi = TypeParam::levels / 2;
    EXPECT_EQ(q.best(), nullptr);
    EXPECT_EQ(q.best_prio(), TypeParam::levels);
    for (int i = 0; i < 3; ++i) q.push_back(&n[i], lo);
    for (int i = 3; i < 6; ++i) q.push_back(&n[i], hi);
    EXPECT_EQ(q.best(), &n[3]);
    q.rotate(hi);
    EXPECT_EQ(q.best(), &n[4]);
    q.remove(&n[5], hi);  // the tail
    q.remove(&n[4], hi);  // the head
    EXPECT_EQ(q.best(), &n[3]);
    q.remove(&n[3], hi);
    EXPECT_EQ(q.best_prio(), lo);
    q.remove(&n[1], lo);  // the middle
    EXPECT_EQ(q.best(), &n[0]);
    q.rotate(lo);
    EXPECT_EQ(q.best(), &n[2]);
    q.remove(&n[2], lo);
    q.remove(&n[0], lo);
    EXPECT_EQ(q.best(), nullptr);
}

// rotate_past(n) makes n the tail wherever it stands: the head (the
// yield's usual case, the same as rotate()) or in the middle; best_is()
// follows the best non-empty level.
TYPED_TEST(runqueue, rotate_past_and_best_is) {
    run_queue<TypeParam::levels, TypeParam::enc> q;
    clist_node n[4];
    const unsigned lo = TypeParam::levels - 1, hi = TypeParam::levels / 2;
    for (int i = 0; i < 3; ++i) q.push_back(&n[i], lo);
    EXPECT_TRUE(q.best_is(lo));
    q.rotate_past(&n[0], lo);  // the head: as rotate()
    EXPECT_EQ(q.best(), &n[1]);
    q.rotate_past(&n[2], lo);  // not the head: n[2] becomes the tail, n[0] the head
    EXPECT_EQ(q.best(), &n[0]);
    EXPECT_EQ(n[2].next, &n[0]);
    q.push_back(&n[3], hi);
    EXPECT_TRUE(q.best_is(hi));
    EXPECT_FALSE(q.best_is(lo));
    q.remove(&n[3], hi);
    EXPECT_TRUE(q.best_is(lo));
}

// clist::remove() reports whether it emptied the list.
TEST(clist, remove_reports_empty) {
    kairos::detail::clist l;
    clist_node a, b;
    l.push_back(&a);
    l.push_back(&b);
    EXPECT_FALSE(l.remove(&a));
    EXPECT_FALSE(l.empty());
    EXPECT_TRUE(l.remove(&b));
    EXPECT_TRUE(l.empty());
    EXPECT_FALSE(b.linked());
}

}  // namespace

// SPDX-License-Identifier: MIT
// Source compatibility with how EspSoftwareSerial 8.x and ghostl use
// circular_queue: `#include <circular_queue.h>` and nothing else before
// IRAM_ATTR, unqualified min and Delegate are used; explicit instantiation
// (definition and `extern template` declaration) of single members on both
// queue kinds, as EspSoftwareSerial writes it, and of the whole class (named
// kairos::..., since an unqualified name from a using-declaration cannot be
// explicitly instantiated outside its namespace); for_each with a Delegate
// member and with a braced {fn, arg}; peek() through a const reference.
#include <circular_queue.h>  // must come first: the rest of this block relies on it alone

#include <cstdint>

namespace compat_probe {

struct uart;  // stands in for EspSoftwareSerial::UARTBase

// What EspSoftwareSerial's header declares and its .cpp defines.
inline std::uint32_t IRAM_ATTR ticks_to_bits(std::uint32_t ticks, std::uint32_t cap) {
    return min(ticks, cap);  // unqualified, as SoftwareSerial.cpp writes it
}

}  // namespace compat_probe

extern template std::size_t circular_queue<std::uint32_t, compat_probe::uart*>::available() const;
extern template bool circular_queue<std::uint32_t, compat_probe::uart*>::push(std::uint32_t&&);
extern template bool circular_queue<std::uint32_t, compat_probe::uart*>::push(const std::uint32_t&);
extern template void delegate::detail::DelegateImpl<void*, void>::operator()() const;
extern template class kairos::circular_queue<std::uint8_t>;

template std::size_t IRAM_ATTR circular_queue<std::uint32_t, compat_probe::uart*>::available() const;
template bool IRAM_ATTR circular_queue<std::uint32_t, compat_probe::uart*>::push(std::uint32_t&&);
template bool IRAM_ATTR circular_queue<std::uint32_t, compat_probe::uart*>::push(const std::uint32_t&);
template void IRAM_ATTR delegate::detail::DelegateImpl<void*, void>::operator()() const;
template class kairos::circular_queue<std::uint8_t>;

#include <circular_queue_mp.h>  // ghostl's top-level name

extern template std::size_t circular_queue_mp<std::uint32_t, compat_probe::uart*>::available() const;
extern template bool circular_queue_mp<std::uint32_t, compat_probe::uart*>::push(std::uint32_t&&);
extern template bool circular_queue_mp<std::uint32_t, compat_probe::uart*>::push(const std::uint32_t&);
extern template class kairos::circular_queue_mp<std::uint16_t>;
template std::size_t circular_queue_mp<std::uint32_t, compat_probe::uart*>::available() const;
template bool circular_queue_mp<std::uint32_t, compat_probe::uart*>::push(std::uint32_t&&);
template bool circular_queue_mp<std::uint32_t, compat_probe::uart*>::push(const std::uint32_t&);
template class kairos::circular_queue_mp<std::uint16_t>;

#include <gtest/gtest.h>

#include <memory>
#include <vector>

namespace compat_probe {

// uart mirrors EspSoftwareSerial's receive path: the ISR pushes edge ticks,
// rxBits() drains them with for_each through a Delegate member bound to
// this, and a handler is a Delegate<void(), void*>.
struct uart {
    std::unique_ptr<circular_queue<std::uint32_t, uart*>> isr_buffer{
        new circular_queue<std::uint32_t, uart*>(8)};
    const Delegate<void(std::uint32_t&&), uart*> for_each_del{
        [](uart* self, std::uint32_t&& tick) { self->got.push_back(tick); }, this};
    Delegate<void(), void*> rx_handler;
    std::vector<std::uint32_t> got;

    void rx_bits() { isr_buffer->for_each(for_each_del); }
};

TEST(circular_queue_compat, include_name_iram_attr_and_min) {
    EXPECT_EQ(ticks_to_bits(9, 4), 4u);
    EXPECT_EQ(min(3, 5), 3);
}

TEST(circular_queue_compat, for_each_with_a_delegate_member) {
    uart u;
    for (std::uint32_t t : {10u, 20u, 30u}) ASSERT_TRUE(u.isr_buffer->push(t));
    EXPECT_EQ(u.isr_buffer->available(), 3u);
    u.rx_bits();
    EXPECT_EQ(u.got, (std::vector<std::uint32_t>{10, 20, 30}));
    EXPECT_EQ(u.isr_buffer->available(), 0u);
}

TEST(circular_queue_compat, delegate_kinds) {
    int calls = 0;
    Delegate<void(), void*> none;
    EXPECT_FALSE(none);
    Delegate<void(), void*> bound{[](void* p) { ++*static_cast<int*>(p); }, &calls};
    EXPECT_TRUE(bound);
    bound();
    EXPECT_EQ(calls, 1);
    Delegate<void(), void*> functor{[&calls] { calls += 10; }};
    functor();
    EXPECT_EQ(calls, 11);
    Delegate<int(int)> plain{[](int x) { return x * 2; }};
    EXPECT_EQ(plain(21), 42);
    Delegate<int(int)> empty{nullptr};
    EXPECT_FALSE(empty);
    empty = plain;
    EXPECT_EQ(empty(4), 8);
    bound = nullptr;
    EXPECT_FALSE(bound);
}

template <class Q>
void braced_fn_arg() {
    Q q(4);
    std::vector<std::uint32_t> seen;
    for (std::uint32_t v : {1u, 2u, 3u}) ASSERT_TRUE(q.push(v));
    q.for_each_rev_requeue({[](std::vector<std::uint32_t>* s, std::uint32_t& v) {
                                s->push_back(v);
                                return v != 2;  // drop 2, keep the rest
                            },
                            &seen});
    EXPECT_EQ(seen.size(), 3u);
    EXPECT_EQ(q.available(), 2u);
    seen.clear();
    q.for_each({[](std::vector<std::uint32_t>* s, std::uint32_t&& v) { s->push_back(v); }, &seen});
    EXPECT_EQ(seen, (std::vector<std::uint32_t>{1, 3}));
    EXPECT_EQ(q.available(), 0u);
}

TEST(circular_queue_compat, braced_fn_arg_spsc) {
    braced_fn_arg<circular_queue<std::uint32_t, std::vector<std::uint32_t>*>>();
}
TEST(circular_queue_compat, braced_fn_arg_mpsc) {
    braced_fn_arg<circular_queue_mp<std::uint32_t, std::vector<std::uint32_t>*>>();
}

TEST(circular_queue_compat, delegate_to_for_each_on_mp) {
    circular_queue_mp<std::uint32_t, int*> q(4);
    ASSERT_TRUE(q.push(5u));
    ASSERT_TRUE(q.push(6u));
    int sum = 0;
    const Delegate<void(std::uint32_t&&), int*> add{
        [](int* s, std::uint32_t&& v) { *s += static_cast<int>(v); }, &sum};
    q.for_each(add);
    EXPECT_EQ(sum, 11);
}

TEST(circular_queue_compat, peek_through_const_reference) {
    circular_queue<std::uint8_t> q(2);
    circular_queue_mp<std::uint16_t> mq(2);
    ASSERT_TRUE(q.push(7));
    ASSERT_TRUE(mq.push(8));
    const auto& cq = q;
    const auto& cmq = mq;
    EXPECT_EQ(cq.peek(), 7);
    EXPECT_EQ(cmq.peek(), 8);
    EXPECT_EQ(cq.available(), 1u);
    EXPECT_EQ(cmq.available(), 1u);
}

}  // namespace compat_probe

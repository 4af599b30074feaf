// SPDX-License-Identifier: MIT
// Delegate.h (kairos::esp8266_compat): Delegate<R(P...), A>, the callable
// wrapper of the ESP8266 core / ghostl that circular_queue callbacks and
// EspSoftwareSerial handlers are written against.
//
// A Delegate holds one of: nothing; a function pointer R(*)(A, P...) with
// the object A it is called with (no heap, the form EspSoftwareSerial binds
// to `this`); or any other callable (function pointer, lambda, functor),
// kept in a std::function<R(P...)> as the original does. In a freestanding
// build (no <functional>) the last kind is a plain function pointer: a
// captureless lambda still converts, anything else is a compile error.
// Calling an empty
// Delegate returns R{} (as the original). The call operator is a member of
// delegate::detail::DelegateImpl<A, R, P...>, so
// `template R delegate::detail::DelegateImpl<A, R, P...>::operator()(P...) const;`
// instantiates it explicitly, as EspSoftwareSerial does to place it in IRAM.
// Not provided: the original's conversions to FunVPPtr and FunctionType.
#pragma once

#include <kairos/config.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>
#if __STDC_HOSTED__
#include <functional>
#endif

#ifndef IRAM_ATTR
#define IRAM_ATTR KAIROS_ISR_FN
#endif

namespace delegate {
namespace detail {

// target_store<R, P...> holds a Delegate's callable; storable<F, R, P...>
// says whether F can be stored in it.
#if __STDC_HOSTED__
template <class R, class... P>
using target_store = std::function<R(P...)>;
template <class F, class R, class... P>
inline constexpr bool storable = std::is_invocable_r_v<R, F&, P...>;
#else
template <class R, class... P>
using target_store = R (*)(P...);
template <class F, class R, class... P>
inline constexpr bool storable = std::is_convertible_v<F, R (*)(P...)>;
#endif

template <class A, class R, class... P>
class DelegateImpl;

// DelegateImpl<void, R, P...> is Delegate<R(P...)>: any callable, or empty.
template <class R, class... P>
class DelegateImpl<void, R, P...> {
public:
    using target_type = R(P...);
    using FunPtr = R (*)(P...);
#if __STDC_HOSTED__
    using FunctionType = std::function<R(P...)>;
#endif

    DelegateImpl() = default;
    DelegateImpl(std::nullptr_t) noexcept {}
    // DelegateImpl(f) stores a callable; a null pointer or an empty
    // std::function gives an empty Delegate.
    template <class F, std::enable_if_t<!std::is_base_of_v<DelegateImpl, std::decay_t<F>> &&
                                            storable<F, R, P...>,
                                        int> = 0>
    DelegateImpl(F&& f) : func_(std::forward<F>(f)) {}

    DelegateImpl& operator=(std::nullptr_t) noexcept {
        func_ = nullptr;
        return *this;
    }

    // operator bool() is true when the Delegate has a target (implicit, as
    // in the original).
    operator bool() const noexcept { return static_cast<bool>(func_); }

    // operator()(args...) calls the target; R{} when empty.
    R operator()(P... args) const {
        if (func_) return func_(std::forward<P>(args)...);
        return R();
    }

private:
    target_store<R, P...> func_{};
};

// DelegateImpl<A, R, P...> is Delegate<R(P...), A>: also fnA(obj, args...)
// with the object stored in the Delegate.
template <class A, class R, class... P>
class DelegateImpl : public DelegateImpl<void, R, P...> {
    using plain = DelegateImpl<void, R, P...>;

public:
    using FunAPtr = R (*)(A, P...);

    using plain::plain;
    DelegateImpl() = default;
    // DelegateImpl(fnA, obj) calls fnA(obj, args...); a null fnA is empty.
    DelegateImpl(FunAPtr fnA, const A& obj) : fnA_(fnA), obj_(obj) {}
    DelegateImpl(FunAPtr fnA, A&& obj) : fnA_(fnA), obj_(std::move(obj)) {}

    DelegateImpl& operator=(std::nullptr_t) noexcept {
        plain::operator=(nullptr);
        fnA_ = nullptr;
        return *this;
    }

    operator bool() const noexcept { return fnA_ != nullptr || plain::operator bool(); }

    R operator()(P... args) const {
        if (fnA_ != nullptr) return fnA_(obj_, std::forward<P>(args)...);
        return plain::operator()(std::forward<P>(args)...);
    }

private:
    FunAPtr fnA_ = nullptr;
    A obj_{};
};

}  // namespace detail
}  // namespace delegate

// Delegate<R(P...), A> is the original's name and signature form.
template <class Sig, class A = void>
class Delegate;

template <class R, class... P, class A>
class Delegate<R(P...), A> : public delegate::detail::DelegateImpl<A, R, P...> {
    using impl = delegate::detail::DelegateImpl<A, R, P...>;

public:
    using impl::impl;
    using impl::operator=;
    Delegate() = default;
};

// SPDX-License-Identifier: MIT
// Ticker.h (kairos ESP8266 compatibility, hosts): the ESP8266 Ticker over
// kairos::ticker. Callbacks run in signal context (interrupt-like); the
// *_scheduled variants instead schedule_function() the callback from there,
// so it runs in the loop, and attach_ms_scheduled_accurate registers it as
// a recurrent function with period 0, so it runs at the next yield().
//
// Nothing in the tick path allocates. A callable larger than a slot is
// converted to std::function once, at attach time (task context), as
// upstream. For the *_scheduled variants, a callable that is not trivially
// copyable (a std::function, a lambda capturing a String) is moved to the
// heap once at attach time and shared: the tick queues a pointer-sized
// callable, and each run calls a fresh copy of the original in the loop, as
// upstream's copy per tick would (the copy is made in task context).
//
// As upstream, a copied Ticker is a fresh detached one, and moving or
// copy-assigning detaches both sides, so std::vector<Ticker> and classes
// holding a Ticker work.
#pragma once

#include "Schedule.h"

#include <kairos/ticker.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

class Ticker {
public:
    using callback_function_t = std::function<void()>;
    using callback_with_arg_t = void (*)(void*);
    template <typename T>
    using remove_cvref_t = std::remove_cv_t<std::remove_reference_t<T>>;
    template <typename T, typename Y = remove_cvref_t<T>>
    using callback_with_typed_arg_t = void (*)(Y);

    Ticker() = default;
    ~Ticker() { detach(); }
    Ticker(const Ticker&) noexcept {}  // a fresh detached Ticker, as upstream
    Ticker& operator=(const Ticker& other) noexcept {
        if (this != &other) detach();
        return *this;
    }
    Ticker(Ticker&& other) noexcept { other.detach(); }
    Ticker& operator=(Ticker&& other) noexcept {
        other.detach();
        detach();
        return *this;
    }

    template <class F>
    void attach(float seconds, F&& cb) { attach_us(to_us(seconds), std::forward<F>(cb)); }
    template <class F>
    void attach_ms(std::uint32_t ms, F&& cb) { attach_us(std::uint64_t{ms} * 1000u, std::forward<F>(cb)); }
    template <class F>
    void attach_us(std::uint64_t us, F&& cb) {
        t_.attach_us(us, store(std::forward<F>(cb)));
    }
    template <class F>
    void once(float seconds, F&& cb) { once_us(to_us(seconds), std::forward<F>(cb)); }
    template <class F>
    void once_ms(std::uint32_t ms, F&& cb) { once_us(std::uint64_t{ms} * 1000u, std::forward<F>(cb)); }
    template <class F>
    void once_us(std::uint64_t us, F&& cb) {
        t_.once_us(us, store(std::forward<F>(cb)));
    }

    template <class F>
    void attach_scheduled(float seconds, F&& cb) { attach(seconds, deferred<to_loop>(std::forward<F>(cb))); }
    template <class F>
    void attach_ms_scheduled(std::uint32_t ms, F&& cb) { attach_ms(ms, deferred<to_loop>(std::forward<F>(cb))); }
    template <class F>
    void attach_us_scheduled(std::uint64_t us, F&& cb) { attach_us(us, deferred<to_loop>(std::forward<F>(cb))); }
    // attach_ms_scheduled_accurate(ms, cb) runs cb at the first yield() (or
    // pass of the recurrent functions) after each tick, not after loop().
    template <class F>
    void attach_ms_scheduled_accurate(std::uint32_t ms, F&& cb) {
        attach_ms(ms, deferred<to_yield>(std::forward<F>(cb)));
    }
    template <class F>
    void once_scheduled(float seconds, F&& cb) { once(seconds, deferred<to_loop>(std::forward<F>(cb))); }
    template <class F>
    void once_ms_scheduled(std::uint32_t ms, F&& cb) { once_ms(ms, deferred<to_loop>(std::forward<F>(cb))); }
    template <class F>
    void once_us_scheduled(std::uint64_t us, F&& cb) { once_us(us, deferred<to_loop>(std::forward<F>(cb))); }

    // Callback plus argument: a function pointer with an explicit or deduced
    // TArg (the older core's form), or any callable converting to
    // void(*)(Arg), such as a captureless lambda (the current core's form).
    template <typename TArg>
    void attach(float seconds, void (*callback)(TArg), TArg arg) { attach(seconds, with_arg(callback, arg)); }
    template <typename TArg>
    void attach_ms(std::uint32_t ms, void (*callback)(TArg), TArg arg) { attach_ms(ms, with_arg(callback, arg)); }
    template <typename TArg>
    void attach_us(std::uint64_t us, void (*callback)(TArg), TArg arg) { attach_us(us, with_arg(callback, arg)); }
    template <typename TArg>
    void once(float seconds, void (*callback)(TArg), TArg arg) { once(seconds, with_arg(callback, arg)); }
    template <typename TArg>
    void once_ms(std::uint32_t ms, void (*callback)(TArg), TArg arg) { once_ms(ms, with_arg(callback, arg)); }
    template <typename TArg>
    void once_us(std::uint64_t us, void (*callback)(TArg), TArg arg) { once_us(us, with_arg(callback, arg)); }
    template <typename Func, typename Arg>
    void attach(float seconds, Func func, Arg arg) { attach(seconds, with_arg(typed<Arg>(func), arg)); }
    template <typename Func, typename Arg>
    void attach_ms(std::uint32_t ms, Func func, Arg arg) { attach_ms(ms, with_arg(typed<Arg>(func), arg)); }
    template <typename Func, typename Arg>
    void once(float seconds, Func func, Arg arg) { once(seconds, with_arg(typed<Arg>(func), arg)); }
    template <typename Func, typename Arg>
    void once_ms(std::uint32_t ms, Func func, Arg arg) { once_ms(ms, with_arg(typed<Arg>(func), arg)); }

    // detach() stops the ticker; allowed from its own callback.
    void detach() noexcept { t_.detach(); }
    bool active() const { return t_.active(); }
    explicit operator bool() const { return active(); }

private:
    static std::uint64_t to_us(float seconds) {
        return static_cast<std::uint64_t>(static_cast<double>(seconds) * 1e6 + 0.5);
    }
    template <class F>
    static decltype(auto) store(F&& cb) {
        return kairos::esp8266_compat::as_stored<void()>(std::forward<F>(cb));
    }
    // with_arg(func, arg) calls func(arg).
    template <typename Fn, typename T>
    static auto with_arg(Fn func, T arg) {
        return [func, arg] { func(arg); };
    }
    // typed<Arg>(func) is func as void(*)(Arg without cv/ref), as upstream
    // coerces it (a captureless lambda converts, a capturing one does not).
    template <typename Arg>
    static callback_with_typed_arg_t<Arg> typed(callback_with_typed_arg_t<Arg> func) { return func; }

    // to_loop / to_yield queue a callable from the tick (signal context)
    // for run_scheduled_functions() / run_scheduled_recurrent_functions().
    struct to_loop {
        template <class G>
        static void push(G&& g) { schedule_function(std::forward<G>(g)); }
    };
    struct to_yield {
        template <class G>
        static void push(G&& g) {
            schedule_recurrent_function_us(
                [g = std::forward<G>(g)]() mutable {
                    g();
                    return false;  // once
                },
                0);
        }
    };
    // deferred<Q>(cb) is the tick callback that queues a run of cb through
    // Q. A trivially copyable cb that fits a slot is copied per tick (a
    // memcpy); any other is shared, and each run calls a copy made in the
    // loop, so the tick neither allocates nor converts.
    template <class Q, class F>
    static auto deferred(F&& cb) {
        using D = std::decay_t<F>;
        if constexpr (std::is_trivially_copyable_v<D> && kairos::esp8266_compat::fits_slot<D>) {
            return [cb = D(std::forward<F>(cb))] { Q::push(cb); };
        } else {
            auto shared = std::make_shared<const D>(std::forward<F>(cb));
            return [shared] {
                Q::push([shared] {
                    D copy(*shared);
                    copy();
                });
            };
        }
    }

    kairos::ticker t_;
};

// Ticker.h (kairos ESP8266 compatibility, hosts): the ESP8266 Ticker over
// kairos::ticker. Callbacks run in signal context (interrupt-like); the
// *_scheduled variants instead schedule_function() the callback from there,
// so it runs in the loop. Callables larger than a slot are converted to
// std::function at attach time (task context), as upstream.
#pragma once

#include "Schedule.h"

#include <kairos/ticker.hpp>

#include <cstdint>
#include <functional>
#include <utility>

class Ticker {
public:
    typedef void (*callback_with_arg_t)(void*);
    typedef std::function<void(void)> callback_function_t;

    Ticker() = default;
    ~Ticker() { detach(); }

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
    void attach_scheduled(float seconds, F&& cb) { attach(seconds, scheduled(std::forward<F>(cb))); }
    template <class F>
    void attach_ms_scheduled(std::uint32_t ms, F&& cb) { attach_ms(ms, scheduled(std::forward<F>(cb))); }
    template <class F>
    void attach_us_scheduled(std::uint64_t us, F&& cb) { attach_us(us, scheduled(std::forward<F>(cb))); }
    template <class F>
    void once_scheduled(float seconds, F&& cb) { once(seconds, scheduled(std::forward<F>(cb))); }
    template <class F>
    void once_ms_scheduled(std::uint32_t ms, F&& cb) { once_ms(ms, scheduled(std::forward<F>(cb))); }
    template <class F>
    void once_us_scheduled(std::uint64_t us, F&& cb) { once_us(us, scheduled(std::forward<F>(cb))); }

    template <typename TArg>
    void attach(float seconds, void (*callback)(TArg), TArg arg) {
        attach(seconds, [callback, arg] { callback(arg); });
    }
    template <typename TArg>
    void attach_ms(std::uint32_t ms, void (*callback)(TArg), TArg arg) {
        attach_ms(ms, [callback, arg] { callback(arg); });
    }
    template <typename TArg>
    void attach_us(std::uint64_t us, void (*callback)(TArg), TArg arg) {
        attach_us(us, [callback, arg] { callback(arg); });
    }
    template <typename TArg>
    void once(float seconds, void (*callback)(TArg), TArg arg) {
        once(seconds, [callback, arg] { callback(arg); });
    }
    template <typename TArg>
    void once_ms(std::uint32_t ms, void (*callback)(TArg), TArg arg) {
        once_ms(ms, [callback, arg] { callback(arg); });
    }
    template <typename TArg>
    void once_us(std::uint64_t us, void (*callback)(TArg), TArg arg) {
        once_us(us, [callback, arg] { callback(arg); });
    }

    // detach() stops the ticker; allowed from its own callback.
    void detach() { t_.detach(); }
    bool active() const { return t_.active(); }

private:
    static std::uint64_t to_us(float seconds) {
        return static_cast<std::uint64_t>(static_cast<double>(seconds) * 1e6 + 0.5);
    }
    template <class F>
    static decltype(auto) store(F&& cb) {
        return kairos::esp8266_compat::as_stored<void()>(std::forward<F>(cb));
    }
    // scheduled(cb) is a callback that queues a copy of cb for the loop.
    template <class F>
    static auto scheduled(F&& cb) {
        return [cb = std::decay_t<F>(std::forward<F>(cb))] { schedule_function(cb); };
    }

    kairos::ticker t_;
};

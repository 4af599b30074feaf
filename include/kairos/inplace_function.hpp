// SPDX-License-Identifier: MIT
// kairos/inplace_function.hpp: a type-erased callable stored inside the
// object, never on the heap.
//
// inplace_function<R(Args...), Size, Align> holds any callable (lambda,
// function pointer, functor, std::function) callable as R(Args...) (for
// R = void, whatever it returns is discarded) whose size is at most Size and
// whose alignment is at most Align. A callable that does not fit is a
// compile-time error naming the sizes, never a hidden allocation. It is
// move-only, so it can also hold move-only callables; moving a trivially
// copyable callable is a memcpy of the buffer.
//
// The deferred scheduler keeps one in every queue slot, so schedule() from an
// interrupt or a signal handler constructs the callable in place and
// allocates nothing.
#pragma once

#include <kairos/detail/raw_storage.hpp>

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>

namespace kairos {

// default_inplace_size is four pointers: 32 bytes on 64-bit hosts, 16 on
// 32-bit MCUs, which holds a std::function<void()> on libstdc++ and libc++
// and lambdas capturing up to four pointers or words.
inline constexpr std::size_t default_inplace_size = 4 * sizeof(void*);
// default_inplace_align fits every scalar a capture usually holds (uint64_t,
// double and pointers) without padding slots on 32-bit cores.
inline constexpr std::size_t default_inplace_align =
    alignof(std::uint64_t) > alignof(void*) ? alignof(std::uint64_t) : alignof(void*);

template <class Sig, std::size_t Size = default_inplace_size,
          std::size_t Align = default_inplace_align>
class inplace_function;

namespace detail {
template <class T>
struct is_inplace_function : std::false_type {};
template <class Sig, std::size_t S, std::size_t A>
struct is_inplace_function<inplace_function<Sig, S, A>> : std::true_type {};

// is_null_callable(f) is true for a null function pointer or an empty
// std::function-like object: types that convert to bool say whether they can
// be called. Everything else is callable by construction.
template <class F>
constexpr bool is_null_callable(const F& f) noexcept {
    if constexpr (std::is_pointer_v<F>) {
        return f == nullptr;
    } else if constexpr (std::is_class_v<F> && std::is_constructible_v<bool, const F&>) {
        return !static_cast<bool>(f);  // std::function, a captureless lambda (always true)
    } else {
        return false;
    }
}

// inplace_base<Size, Align> is the part of inplace_function that does not
// depend on the call signature: the buffer, the erased invoker and the
// manager, reset() and the move. Functions with the same Size and Align
// (deferred's one-shot void() and recurrent bool() callables) share one
// copy of that code.
template <std::size_t Size, std::size_t Align>
class inplace_base {
public:
    explicit operator bool() const noexcept { return invoke_ != nullptr; }

    // reset() destroys the stored callable; the object becomes empty.
    void reset() noexcept {
        if (manage_ != nullptr) manage_(op::destroy, buf_.bytes, nullptr);
        invoke_ = nullptr;
        manage_ = nullptr;
    }

protected:
    enum class op { destroy, relocate };
    // erased_fn holds the signature's invoker; inplace_function converts it
    // back to its own type before a call (a round trip the standard allows).
    using erased_fn = void (*)();
    using manage_t = void (*)(op, void* self, void* from);

    constexpr inplace_base() noexcept = default;
    ~inplace_base() { reset(); }
    inplace_base(const inplace_base&) = delete;
    inplace_base& operator=(const inplace_base&) = delete;

    // manage_fn<D> destroys, or move-constructs into self and destroys from.
    // Only non-trivial callables have one; trivial ones are memcpy'd.
    template <class D>
    static void manage_fn(op o, void* self, void* from) noexcept {
        if (o == op::relocate) {
            D* src = std::launder(static_cast<D*>(from));
            ::new (self) D(std::move(*src));
            src->~D();
        } else {
            std::launder(static_cast<D*>(self))->~D();
        }
    }

    // take(o) moves o's callable here and empties o. Precondition: empty.
    void take(inplace_base& o) noexcept {
        if (o.manage_ != nullptr) {
            o.manage_(op::relocate, buf_.bytes, o.buf_.bytes);
        } else if (o.invoke_ != nullptr) {
            for (std::size_t i = 0; i < Size; ++i) buf_.bytes[i] = o.buf_.bytes[i];
        }
        invoke_ = o.invoke_;
        manage_ = o.manage_;
        o.invoke_ = nullptr;
        o.manage_ = nullptr;
    }

    erased_fn invoke_ = nullptr;
    manage_t manage_ = nullptr;  // null: trivially copyable and destructible
    raw_storage<Size, Align> buf_;  // raw: constexpr default constructor
};
}  // namespace detail

template <class R, class... Args, std::size_t Size, std::size_t Align>
class inplace_function<R(Args...), Size, Align> : public detail::inplace_base<Size, Align> {
    using base = detail::inplace_base<Size, Align>;

    static_assert(Size >= sizeof(void*), "inplace_function: Size must hold at least a pointer");
    static_assert(Align != 0 && (Align & (Align - 1)) == 0,
                  "inplace_function: Align must be a power of two");

public:
    static constexpr std::size_t capacity = Size;
    static constexpr std::size_t alignment = Align;

    constexpr inplace_function() noexcept = default;
    constexpr inplace_function(std::nullptr_t) noexcept {}

    // inplace_function(f) stores a copy (or the moved value) of f inside this
    // object. A null function pointer or an empty std::function gives an
    // empty inplace_function.
    template <class F, class D = std::decay_t<F>,
              class = std::enable_if_t<!detail::is_inplace_function<D>::value &&
                                       !std::is_same_v<D, std::nullptr_t>>>
    inplace_function(F&& f) noexcept(std::is_nothrow_constructible_v<D, F&&>) {
        store(std::forward<F>(f));
    }

    // emplace(f) replaces the stored callable with f, constructed in place
    // (no temporary inplace_function, no move); f as in the constructor.
    template <class F, class D = std::decay_t<F>,
              class = std::enable_if_t<!detail::is_inplace_function<D>::value &&
                                       !std::is_same_v<D, std::nullptr_t>>>
    void emplace(F&& f) noexcept(std::is_nothrow_constructible_v<D, F&&>) {
        this->reset();
        store(std::forward<F>(f));
    }

    inplace_function(inplace_function&& o) noexcept { this->take(o); }
    inplace_function& operator=(inplace_function&& o) noexcept {
        if (this != &o) {
            this->reset();
            this->take(o);
        }
        return *this;
    }
    inplace_function(const inplace_function&) = delete;
    inplace_function& operator=(const inplace_function&) = delete;
    inplace_function& operator=(std::nullptr_t) noexcept {
        this->reset();
        return *this;
    }
    ~inplace_function() = default;  // the base destroys the callable

    // operator()(args...) calls the stored callable. Precondition: not empty
    // (calling an empty inplace_function is a null function pointer call).
    R operator()(Args... args) const {
        return reinterpret_cast<invoke_t>(this->invoke_)(
            const_cast<unsigned char*>(this->buf_.bytes), std::forward<Args>(args)...);
    }

private:
    using invoke_t = R (*)(void*, Args&&...);

    // invoke_fn<D> calls the stored D; for R = void a result is discarded,
    // as std::function<void()> does.
    template <class D>
    static R invoke_fn(void* p, Args&&... args) {
        if constexpr (std::is_void_v<R>) {
            static_cast<void>((*std::launder(static_cast<D*>(p)))(std::forward<Args>(args)...));
        } else {
            return (*std::launder(static_cast<D*>(p)))(std::forward<Args>(args)...);
        }
    }

    // store(f) constructs f in the buffer. Precondition: empty.
    template <class F, class D = std::decay_t<F>>
    void store(F&& f) noexcept(std::is_nothrow_constructible_v<D, F&&>) {
        static_assert(!std::is_member_pointer_v<D>,
                      "inplace_function: wrap a member pointer in a lambda");
        static_assert(std::is_invocable_r_v<R, D&, Args...>,
                      "inplace_function: the callable cannot be called with this signature");
        static_assert(sizeof(D) <= Size,
                      "inplace_function: the callable is larger than the in-slot buffer; "
                      "capture less (e.g. one pointer to a struct) or raise the Size "
                      "parameter (FnSize of kairos::deferred)");
        static_assert(alignof(D) <= Align,
                      "inplace_function: the callable needs more alignment than the "
                      "in-slot buffer; raise the Align parameter");
        static_assert(std::is_nothrow_move_constructible_v<D>,
                      "inplace_function: the callable must be nothrow move constructible");
        if constexpr (sizeof(D) <= Size && alignof(D) <= Align) {  // no cascade of errors
            if (detail::is_null_callable(f)) return;
            ::new (static_cast<void*>(this->buf_.bytes)) D(std::forward<F>(f));
            invoke_t invoke = &invoke_fn<D>;
            this->invoke_ = reinterpret_cast<typename base::erased_fn>(invoke);
            if constexpr (!std::is_trivially_copyable_v<D> ||
                          !std::is_trivially_destructible_v<D>) {
                this->manage_ = &base::template manage_fn<D>;
            }
        }
    }
};

}  // namespace kairos

// SPDX-License-Identifier: MIT
// polled_timeout_fuzz: one-shot and periodic kairos::polled_timeout on a
// fake wrapping counter (16, 32 and 64 bits) against a model on a 64-bit
// time line that never wraps: timeouts up to time_max(), 0 and
// never_expires, reset() and reset(t), reset_to_never_expires(), polls at
// any phase of the counter's wrap, stalls over many periods. The fuzzer
// keeps the documented polling contract: a one-shot is polled at least
// once per counter range until it expires, a periodic one while less than
// a counter range has passed since its current period began.
#include "fuzz_common.hpp"

#include <kairos/polled_timeout.hpp>

#include <cstddef>
#include <cstdint>

namespace {

using kfuzz::input;

// The fake time line: 64 bits, read truncated by the sources.
std::uint64_t fake_now = 0;

template <class T>
struct fake_source {
    using time_type = T;
    static time_type now() noexcept { return static_cast<time_type>(fake_now); }
};

// model is one timeout on the 64-bit line.
struct model {
    std::uint64_t start = 0;  // 64-bit start (periodic: the current period's)
    std::uint64_t timeout = 0;
    bool never = false;
    bool fired = false;  // one-shot latch
};

template <class T>
class harness {
    static constexpr std::uint64_t range = std::uint64_t{1} << (8 * sizeof(T) - 1) << 1;  // 0 for 64 bits
    static constexpr std::uint64_t span = (range != 0 ? range : std::uint64_t{1} << 63) - 1;
    using one_shot = kairos::polled_timeout<false, fake_source<T>>;
    using periodic = kairos::polled_timeout<true, fake_source<T>>;

public:
    explicit harness(input& in) : in_(in), a_(pick()), b_(0) {
        reset_model(ma_, a_.timeout());
        std::uint64_t t = pick();
        b_.reset(static_cast<T>(t));
        reset_model(mb_, static_cast<T>(t));
    }

    void run() {
        while (in_.more()) {
            const std::uint8_t op = in_.byte();
            switch (op % 8) {
            case 0: poll_a(); break;
            case 1: poll_b(); break;
            case 2: case 3: advance(op >> 3); break;
            case 4: restart(op >> 3); break;
            case 5: poll_a(); poll_b(); break;
            case 6: check_queries(); break;
            default: advance(op >> 3); poll_a(); break;
            }
        }
        check_queries();
    }

private:
    static constexpr T never_expires = one_shot::never_expires;
    static constexpr T time_max = one_shot::time_max();

    // pick() is a timeout: 0, small, near time_max(), never_expires or any.
    T pick() {
        switch (in_.below(5)) {
        case 0: return 0;
        case 1: return static_cast<T>(1 + in_.byte());
        case 2: return static_cast<T>(time_max - in_.byte() % 4);
        case 3: return never_expires;
        default: {
            const T t = in_.get<T>();
            return t > time_max && t != never_expires ? time_max : t;
        }
        }
    }

    void reset_model(model& m, T timeout) {
        m.start = fake_now;
        m.timeout = timeout;
        m.never = timeout == never_expires;
        m.fired = false;
    }

    bool model_one_shot(model& m) {
        if (m.timeout == 0) return true;
        if (m.never) return false;
        if (fake_now - m.start >= m.timeout) m.fired = true;
        return m.fired;
    }

    bool model_periodic(model& m) {
        if (m.timeout == 0) return true;
        if (m.never) return false;
        const std::uint64_t e = fake_now - m.start;
        if (e < m.timeout) return false;
        m.start += e / m.timeout * m.timeout;
        return true;
    }

    void poll_a() {
        const bool want = model_one_shot(ma_);
        FUZZ_CHECK((in_.byte() & 1 ? a_.expired() : bool(a_)) == want);
        last_a_ = fake_now;
    }

    void poll_b() {
        const bool want = model_periodic(mb_);
        FUZZ_CHECK(b_.expired() == want);
    }

    // limit() is the longest step that keeps the polling contract.
    std::uint64_t limit() const {
        // A 64-bit counter: the model's own line must not wrap either, so
        // the one-shot's and the period's elapsed time stay below 2^63.
        auto room = [](std::uint64_t since) { return since >= span ? 0 : span - since; };
        std::uint64_t lim = span;
        if (!ma_.fired && !ma_.never && ma_.timeout != 0) {
            const std::uint64_t l = room(fake_now - (range != 0 ? last_a_ : ma_.start));
            if (l < lim) lim = l;
        }
        if (!mb_.never && mb_.timeout != 0) {
            const std::uint64_t l = room(fake_now - mb_.start);
            if (l < lim) lim = l;
        }
        return lim;
    }

    void advance(unsigned how) {
        std::uint64_t d = 0;
        switch (how % 4) {
        case 0: d = in_.byte(); break;
        case 1: d = in_.get<std::uint16_t>(); break;
        case 2: d = in_.get<std::uint32_t>(); break;
        default: d = in_.get<std::uint64_t>(); break;
        }
        const std::uint64_t lim = limit();
        fake_now += d < lim ? d : lim;
    }

    void restart(unsigned how) {
        switch (how % 6) {
        case 0: a_.reset(); reset_model(ma_, static_cast<T>(ma_.timeout)); last_a_ = fake_now; break;
        case 1: {
            const T t = pick();
            a_.reset(t);
            reset_model(ma_, t);
            last_a_ = fake_now;
            break;
        }
        case 2: a_.reset_to_never_expires(); ma_.timeout = never_expires; ma_.never = true; ma_.fired = false; break;
        case 3: b_.reset(); reset_model(mb_, static_cast<T>(mb_.timeout)); break;
        case 4: {
            const T t = pick();
            b_.reset(t);
            reset_model(mb_, t);
            break;
        }
        default: b_.reset_to_never_expires(); mb_.timeout = never_expires; mb_.never = true; break;
        }
    }

    void check_queries() {
        FUZZ_CHECK(a_.timeout() == static_cast<T>(ma_.timeout));
        FUZZ_CHECK(a_.can_expire() == !ma_.never);
        FUZZ_CHECK(a_.can_wait() == (ma_.timeout != 0));
        FUZZ_CHECK(b_.timeout() == static_cast<T>(mb_.timeout));
        FUZZ_CHECK(b_.can_expire() == !mb_.never);
        FUZZ_CHECK(b_.can_wait() == (mb_.timeout != 0));
    }

    input& in_;
    one_shot a_;
    periodic b_;
    model ma_, mb_;
    std::uint64_t last_a_ = fake_now;
};

template <class T>
void run(input& in) {
    // Start anywhere on the line, often just before a wrap of T.
    fake_now = in.get<std::uint64_t>();
    if (in.byte() & 1) fake_now |= static_cast<std::uint64_t>(static_cast<T>(~T(0))) - in.byte();
    harness<T> h(in);
    h.run();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    input in(data, size);
    switch (in.below(3)) {
    case 0: run<std::uint32_t>(in); break;
    case 1: run<std::uint16_t>(in); break;
    default: run<std::uint64_t>(in); break;
    }
    return 0;
}

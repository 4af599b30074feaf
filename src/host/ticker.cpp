// Host ticker: timer_create() + a real-time signal aimed at the arming thread
// (SIGEV_THREAD_ID), so the callback interrupts that thread like an ISR.
//
// Dispatch: the signal carries a tag (slot | generation << 8) instead of a
// pointer. A signal still pending from an earlier arming, or from a ticker
// already destroyed, finds a different tag in the table and is ignored, so
// the handler never touches a dead object or runs a replaced callback.
#include <kairos/ticker.hpp>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

namespace kairos {

static_assert(sizeof(timer_t) <= sizeof(void*), "timer_t must fit the ticker's handle");

namespace {
constexpr int max_tickers = 256;
constexpr int slot_bits = 8;

// One table entry per live ticker. Written by the arming thread with the
// ticker signal blocked in that thread, read by the handler on that thread.
struct dispatch_entry {
    std::atomic<ticker*> owner{nullptr};
    std::atomic<std::uint32_t> tag{0};  // 0: free
};
dispatch_entry table[max_tickers];
std::atomic<std::uint32_t> next_generation{1};

// block_guard blocks the ticker signal in this thread for a scope, so arm()
// and ~ticker() never race with the handler on their own thread.
class block_guard {
public:
    block_guard() noexcept {
        sigset_t s;
        sigemptyset(&s);
        sigaddset(&s, ticker::signal_number());
        pthread_sigmask(SIG_BLOCK, &s, &old_);
    }
    ~block_guard() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }

private:
    sigset_t old_;
};

timer_t as_timer(void* p) noexcept {
    timer_t t;
    std::memcpy(&t, &p, sizeof t);
    return t;
}
}  // namespace

// ticker_dispatch is the signal handler's access to the ticker's privates.
struct ticker_dispatch {
    static void on_signal(int, siginfo_t* si, void*) noexcept {
        if (si->si_code != SI_TIMER) return;
        const int saved_errno = errno;
        const auto v = static_cast<std::uint32_t>(si->si_value.sival_int);
        dispatch_entry& e = table[v & (max_tickers - 1)];
        // acquire: pairs with the release store of the tag in arm(), so owner
        // and the callback written before it are visible.
        if (e.tag.load(std::memory_order_acquire) == v) {
            // relaxed: ordered by the tag's acquire above.
            if (ticker* t = e.owner.load(std::memory_order_relaxed)) t->fire();
        }
        errno = saved_errno;
    }

    static void install_handler() noexcept {
        static std::atomic<bool> installed{false};
        // acq_rel: one thread installs; later callers see it done.
        if (installed.exchange(true, std::memory_order_acq_rel)) return;
        struct sigaction sa;
        std::memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = &on_signal;
        sa.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&sa.sa_mask);
        sigaction(ticker::signal_number(), &sa, nullptr);
    }
};

int ticker::signal_number() noexcept { return SIGRTMIN + 2; }

bool ticker::arm(std::uint64_t us, bool periodic, callback&& cb) noexcept {
    if (us == 0 || !cb) return false;
    ticker_dispatch::install_handler();
    block_guard blocked;
    detach();
    if (timer_ != nullptr) {
        timer_delete(as_timer(timer_));
        timer_ = nullptr;
    }
    if (slot_ < 0) {
        for (int i = 0; i < max_tickers && slot_ < 0; ++i) {
            ticker* expected = nullptr;
            // acq_rel: claims a free entry against other arming threads.
            if (table[i].owner.compare_exchange_strong(expected, this, std::memory_order_acq_rel))
                slot_ = i;
        }
        if (slot_ < 0) return false;
    }
    // relaxed: a unique number only; the tag store below publishes it.
    const std::uint32_t gen = next_generation.fetch_add(1, std::memory_order_relaxed);
    const std::uint32_t tag = static_cast<std::uint32_t>(slot_) | (gen << slot_bits);
    cb_ = std::move(cb);
    periodic_ = periodic;
    // release: the handler that reads this tag sees cb_ and periodic_.
    table[slot_].tag.store(tag, std::memory_order_release);

    sigevent sev;
    std::memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = signal_number();
    sev.sigev_value.sival_int = static_cast<int>(tag);
    sev.sigev_notify_thread_id = static_cast<pid_t>(syscall(SYS_gettid));
    timer_t t;
    if (timer_create(CLOCK_MONOTONIC, &sev, &t) != 0) return false;
    std::memcpy(&timer_, &t, sizeof t);

    itimerspec its;
    std::memset(&its, 0, sizeof its);
    its.it_value.tv_sec = static_cast<time_t>(us / 1000000u);
    its.it_value.tv_nsec = static_cast<long>(us % 1000000u) * 1000;
    if (periodic) its.it_interval = its.it_value;
    // release: the handler's acquire load in active() checks see cb_.
    active_.store(true, std::memory_order_release);
    if (timer_settime(t, 0, &its, nullptr) != 0) {
        active_.store(false, std::memory_order_release);  // release: as above
        return false;
    }
    return true;
}

void ticker::detach() noexcept {
    // release: a callback that observes inactive needs no other data.
    active_.store(false, std::memory_order_release);
    if (timer_ != nullptr) {
        itimerspec zero;
        std::memset(&zero, 0, sizeof zero);
        timer_settime(as_timer(timer_), 0, &zero, nullptr);  // async-signal-safe
    }
}

void ticker::fire() noexcept {
    // acquire: pairs with arm()'s release; a detached ticker stays silent.
    if (!active_.load(std::memory_order_acquire)) return;
    if (!periodic_) active_.store(false, std::memory_order_release);  // release: as in detach()
    const int over = timer_getoverrun(as_timer(timer_));  // async-signal-safe
    // relaxed: a statistic.
    if (over > 0) overruns_.fetch_add(static_cast<std::uint32_t>(over), std::memory_order_relaxed);
    cb_();
}

ticker::~ticker() {
    if (slot_ < 0 && timer_ == nullptr) return;
    block_guard blocked;
    detach();
    if (timer_ != nullptr) timer_delete(as_timer(timer_));
    if (slot_ >= 0) {
        // release: a pending signal's handler sees the tag cleared first.
        table[slot_].tag.store(0, std::memory_order_release);
        table[slot_].owner.store(nullptr, std::memory_order_release);  // release: frees the entry
    }
}

}  // namespace kairos

// Port hooks common to every hosted (Linux) port: time, console, panic, the
// virtual interrupt mask, signals as interrupts, request_switch and idle.
// The context switch itself is the port's host::switch_now(); the masking
// hooks are inline in kairos_port_irq.hpp, their slow part unmask() is here.
//
// Everything here runs on the one OS thread that runs the kernel, and its
// signal handlers. The shared variables are std::atomic (lock-free, hence
// async-signal-safe); the thread and its handlers are ordered by program
// order plus std::atomic_signal_fence (compiler barriers), so every access
// is relaxed: no other CPU ever reads them.
#include "host_switch.hpp"
#include "kairos_host.hpp"
#include "kairos_port_irq.hpp"

#include <kairos/detail/panic_message.hpp>
#include <kairos/port.hpp>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <ctime>

#include <poll.h>
#include <pthread.h>
#include <unistd.h>

namespace {

using isr_fn = void (*)();

// Short names for the flags the inline hooks share (kairos_port_irq.hpp).
constexpr auto& masked = kairos::host::irq.masked;
constexpr auto& isr_depth = kairos::host::irq.isr_depth;
constexpr auto& deferred = kairos::host::irq.deferred;
constexpr auto& switch_req = kairos::host::irq.switch_req;
std::atomic<unsigned long> deferred_runs{0};
std::atomic<isr_fn> handlers[64];
sigset_t kairos_signals;  // written only by attach/detach, in thread context

void fence() noexcept { kairos::host::compiler_fence(); }

// run_isr(sig) runs one handler as an interrupt. Mask already set.
void run_isr(int sig) noexcept {
    // relaxed: same-thread flag; the fences order it against kernel data.
    isr_depth.fetch_add(1, std::memory_order_relaxed);
    fence();
    const isr_fn f = handlers[sig].load(std::memory_order_relaxed);  // relaxed: set before attach
    if (f != nullptr) f();
    fence();
    isr_depth.fetch_sub(1, std::memory_order_relaxed);  // relaxed: as above
}

// run_deferred() runs every deferred handler. Mask set. Returns true if any
// ran. The plain load first keeps the common case (nothing deferred) free of
// a locked instruction; the exchange cannot lose a bit a handler sets
// meanwhile.
bool run_deferred() noexcept {
    bool any = false;
    // relaxed: the handler that set a bit ran on this thread before this point.
    while (deferred.load(std::memory_order_relaxed) != 0) {
        std::uint64_t d = deferred.exchange(0, std::memory_order_relaxed);  // relaxed: as above
        while (d != 0) {
            const int sig = __builtin_ctzll(d);
            d &= d - 1;
            deferred_runs.fetch_add(1, std::memory_order_relaxed);  // relaxed: statistics
            run_isr(sig);
            any = true;
        }
    }
    return any;
}

extern "C" void on_signal(int sig) {
    const int saved_errno = errno;
    // relaxed: written by this thread; a handler cannot interrupt between
    // the check and the store below because sa_mask blocks kairos signals.
    if (masked.load(std::memory_order_relaxed) != 0) {
        deferred.fetch_or(std::uint64_t{1} << sig, std::memory_order_relaxed);  // relaxed: same thread
    } else {
        masked.store(1, std::memory_order_relaxed);  // relaxed: same thread, fenced in run_isr
        run_isr(sig);
        fence();
        masked.store(0, std::memory_order_relaxed);  // relaxed: same thread
        // A switch the handler requested waits for the thread's next kernel
        // entry or exit: switching here would run another thread inside
        // this signal frame with the signal blocked.
    }
    errno = saved_errno;
}

}  // namespace

kairos::host::irq_flags kairos::host::irq;

// unmask() is irq_restore(0): drain deferred handlers, take a requested
// switch (thread context only), then clear the mask; repeat if a signal or
// request slipped in between. switch_req is consumed with a plain store:
// a handler can only set it, and the decision that follows serves any
// request made before it.
void kairos::host::unmask() noexcept {
    for (;;) {
        if (deferred.load(std::memory_order_relaxed) != 0) run_deferred();  // relaxed: same thread
        // relaxed: same-thread flags, ordered by the fences.
        if (switch_req.load(std::memory_order_relaxed) != 0 &&
            isr_depth.load(std::memory_order_relaxed) == 0) {
            switch_req.store(0, std::memory_order_relaxed);
            kairos::host::switch_now();  // anything that came meanwhile: checked below
            kairos::host::finish_switch();
        }
        fence();
        masked.store(0, std::memory_order_relaxed);  // relaxed: same thread, fenced
        fence();
        // Anything that arrived since the checks above? One test for both.
        if ((deferred.load(std::memory_order_relaxed) | switch_req.load(std::memory_order_relaxed)) ==
            0) {
            return;
        }
        masked.store(1, std::memory_order_relaxed);  // relaxed: re-mask to drain again
        fence();
    }
}

namespace kairos::port {

std::uint64_t now_us() noexcept {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);  // vDSO: no system call
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000000u +
           static_cast<std::uint64_t>(ts.tv_nsec) / 1000u;
}

// console_write(): one write(2) to stderr, no stdio buffer (panics use it).
void console_write(const char* s) noexcept {
    std::size_t n = 0;
    while (s[n] != '\0') ++n;
    while (n > 0) {
        const ssize_t w = write(STDERR_FILENO, s, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        s += w;
        n -= static_cast<std::size_t>(w);
    }
}

void start_scheduler() noexcept { request_switch(); }

void idle(std::uint64_t deadline_us) noexcept {
    // Block the kairos signals for real, open the virtual mask, and let
    // ppoll() unblock them atomically while sleeping: a signal arriving
    // after the run queue was checked cannot be lost. One system call pair
    // per idle period, none per switch.
    sigset_t old;
    pthread_sigmask(SIG_BLOCK, &kairos_signals, &old);
    if (run_deferred() || switch_req.load(std::memory_order_relaxed) != 0) {  // relaxed: same thread
        pthread_sigmask(SIG_SETMASK, &old, nullptr);
        return;
    }
    sigset_t wait = old;
    for (int s = 1; s < 64; ++s) {
        if (sigismember(&kairos_signals, s) == 1) sigdelset(&wait, s);
    }
    timespec ts{};
    timespec* tp = nullptr;
    if (deadline_us != UINT64_MAX) {
        const std::uint64_t now = now_us();
        const std::uint64_t d = deadline_us > now ? deadline_us - now : 0;
        ts.tv_sec = static_cast<time_t>(d / 1000000u);
        ts.tv_nsec = static_cast<long>((d % 1000000u) * 1000u);
        tp = &ts;
    }
    masked.store(0, std::memory_order_relaxed);  // relaxed: same thread; handlers run in ppoll
    fence();
    ppoll(nullptr, 0, tp, &wait);
    fence();
    masked.store(1, std::memory_order_relaxed);  // relaxed: same thread
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
}

}  // namespace kairos::port

namespace kairos::host {

bool attach_signal(int signo, void (*isr)()) noexcept {
    if (signo < 1 || signo > 63 || isr == nullptr) return false;
    handlers[signo].store(isr, std::memory_order_relaxed);  // relaxed: before sigaction installs it
    sigaddset(&kairos_signals, signo);
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sa.sa_mask = kairos_signals;  // kairos handlers never nest
    sa.sa_flags = SA_RESTART;
    if (sigaction(signo, &sa, nullptr) != 0) return false;
    // Re-install the others with the grown mask.
    for (int s = 1; s < 64; ++s) {
        if (s != signo && handlers[s].load(std::memory_order_relaxed) != nullptr) {  // relaxed: thread only
            sigaction(s, &sa, nullptr);
        }
    }
    return true;
}

void detach_signal(int signo) noexcept {
    if (signo < 1 || signo > 63) return;
    signal(signo, SIG_DFL);
    sigdelset(&kairos_signals, signo);
    handlers[signo].store(nullptr, std::memory_order_relaxed);  // relaxed: handler removed first
}

std::size_t thread_stack_extra() noexcept {
    // The kernel's figure for this CPU's signal frame (auxiliary vector, no
    // system call). Not the MINSIGSTKSZ macro: with _GNU_SOURCE it is
    // sysconf(_SC_SIGSTKSZ), a comfortable handler stack four times larger.
    long frame = -1;
#if defined(_SC_MINSIGSTKSZ)
    frame = sysconf(_SC_MINSIGSTKSZ);
#endif
    if (frame <= 0) frame = 8192;  // not reported: a bound for every current CPU
    return static_cast<std::size_t>(frame) + 1024;  // on_signal, run_isr, idle, libc
}

unsigned long deferred_count() noexcept {
    return deferred_runs.load(std::memory_order_relaxed);  // relaxed: statistics
}

}  // namespace kairos::host

// kairos_port_panic() writes with write(2) only (console_write()): it may
// run with little stack left and from a signal handler, where stdio is
// neither small nor async-signal-safe.
extern "C" void kairos_port_panic(const char* what, const char* file, int line) noexcept {
    kairos::detail::write_panic_message(what, file, line);
    std::abort();
}

// ---- AddressSanitizer support for the asm ports -----------------------------
// ASan must be told before each stack switch which stack comes next
// (__sanitizer_start_switch_fiber) and after it which one was left
// (__sanitizer_finish_switch_fiber); otherwise it warns at the first
// noreturn call on a thread stack and may report false positives. The asm
// ports know only context handles (stack pointers), so registered stacks
// are searched for the one containing the handle; main's stack is learned
// when it is first left.
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
namespace {
struct asan_stack {
    const char* lo = nullptr;
    std::size_t size = 0;
    void* fake = nullptr;  // ASan's fake stack while switched out
};
asan_stack asan_stacks[128];
asan_stack asan_boot;
asan_stack* asan_from = &asan_boot;  // the stack being left by a started switch
bool asan_switching = false;

asan_stack* asan_find(const void* handle) noexcept {
    const char* h = static_cast<const char*>(handle);
    for (auto& st : asan_stacks) {
        if (st.lo != nullptr && h >= st.lo && h < st.lo + st.size) return &st;
    }
    return &asan_boot;
}
}  // namespace

void kairos::host::register_stack(const void* lo, std::size_t size) noexcept {
    asan_stack* free_slot = nullptr;
    for (auto& st : asan_stacks) {
        if (st.lo == lo) {
            st.size = size;
            return;
        }
        if (st.lo == nullptr && free_slot == nullptr) free_slot = &st;
    }
    if (free_slot != nullptr) {
        free_slot->lo = static_cast<const char*>(lo);
        free_slot->size = size;
    }
}

void kairos::host::finish_switch() noexcept {
    if (!asan_switching) return;
    asan_switching = false;
    const void* lo = nullptr;
    std::size_t size = 0;
    asan_stack* self = asan_find(__builtin_frame_address(0));
    __sanitizer_finish_switch_fiber(self->fake, &lo, &size);
    if (asan_from == &asan_boot && asan_boot.lo == nullptr) {
        asan_boot.lo = static_cast<const char*>(lo);
        asan_boot.size = size;
    }
}

extern "C" void* kairos_host_pick(void* handle) noexcept {
    void* next = kairos_sched_switch(handle);
    if (next != handle) {
        asan_from = asan_find(handle);
        const asan_stack* to = asan_find(next);
        asan_switching = true;
        __sanitizer_start_switch_fiber(&asan_from->fake, to->lo, to->size);
    }
    return next;
}
#else
void kairos::host::register_stack(const void*, std::size_t) noexcept {}
extern "C" void* kairos_host_pick(void* handle) noexcept { return kairos_sched_switch(handle); }
#endif

extern "C" void kairos_host_thread_start(void (*entry)(void*), void* arg) noexcept {
    kairos::host::finish_switch();
    kairos::host::unmask();  // what irq_restore(0) in the switching-out thread would finish
    entry(arg);
    kairos_port_panic("thread entry returned", __FILE__, __LINE__);
}

// SPDX-License-Identifier: MIT
// Port hooks common to every hosted (Linux) port: time (real or virtual),
// console, panic, the virtual interrupt mask, signals as interrupts,
// request_switch and idle. The context switch itself is the port's
// host::switch_now(); the masking hooks are inline in kairos_port_irq.hpp,
// their slow part unmask() is here.
//
// The mask flags are per OS thread (thread_local); the kernel runs on one
// OS thread, and other threads (tickers) each have their own mask. A
// thread's flags are shared only with its own signal handlers. The shared
// variables are std::atomic (lock-free, hence async-signal-safe); a thread
// and its handlers are ordered by program order plus
// std::atomic_signal_fence (compiler barriers), so every access is
// relaxed: no other CPU reads them. The virtual clock has one driving
// thread (see kairos_host.hpp); other threads only read it.
#include "host_switch.hpp"
#include "kairos_host.hpp"
#include "kairos_port_irq.hpp"

#include <kairos/detail/panic_message.hpp>
#include <kairos/detail/trace_hook.hpp>
#include <kairos/config.hpp>
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

// This thread's flags, shared with the inline hooks (kairos_port_irq.hpp).
using kairos::host::irq;
std::atomic<unsigned long> deferred_runs{0};
std::atomic<isr_fn> handlers[64];
sigset_t kairos_signals;  // written only by attach/detach, in thread context

void fence() noexcept { kairos::host::compiler_fence(); }

// run_isr(sig) runs one handler as an interrupt. Mask already set.
void run_isr(int sig) noexcept {
    // relaxed: same-thread flag; the fences order it against kernel data.
    irq.isr_depth.fetch_add(1, std::memory_order_relaxed);
    fence();
    const isr_fn f = handlers[sig].load(std::memory_order_relaxed);  // relaxed: set before attach
    KAIROS_TRACE_ISR_ENTER(sig);
    if (f != nullptr) f();
    KAIROS_TRACE_ISR_EXIT(sig);
    fence();
    irq.isr_depth.fetch_sub(1, std::memory_order_relaxed);  // relaxed: as above
}

// run_deferred() runs every deferred handler. Mask set. Returns true if any
// ran. The plain load first keeps the common case (nothing deferred) free of
// a locked instruction; the exchange cannot lose a bit a handler sets
// meanwhile.
bool run_deferred() noexcept {
    bool any = false;
    // relaxed: the handler that set a bit ran on this thread before this point.
    while (irq.deferred.load(std::memory_order_relaxed) != 0) {
        std::uint64_t d = irq.deferred.exchange(0, std::memory_order_relaxed);  // relaxed: as above
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
    if (irq.masked.load(std::memory_order_relaxed) != 0) {
        irq.deferred.fetch_or(std::uint64_t{1} << sig, std::memory_order_relaxed);  // relaxed: same thread
        irq.pending.store(1, std::memory_order_relaxed);  // relaxed: same thread, after the bit
    } else {
        irq.masked.store(1, std::memory_order_relaxed);  // relaxed: same thread, fenced in run_isr
        run_isr(sig);
        fence();
        irq.masked.store(0, std::memory_order_relaxed);  // relaxed: same thread
        // A switch the handler requested waits for the thread's next kernel
        // entry or exit: switching here would run another thread inside
        // this signal frame with the signal blocked.
    }
    errno = saved_errno;
}

// ---- the virtual clock (host::use_virtual_clock) ---------------------------
// The mode, virtual time and the alarms are driven by one thread (the one
// that runs the kernel or, without a kernel, advances time); relaxed.
std::atomic<bool> virtual_on{false};
std::atomic<std::uint64_t> virtual_now{0};
// Added to the real clock: what virtual time got ahead of it, so now_us()
// stays monotonic when a program goes back to real time.
std::atomic<std::uint64_t> real_offset{0};
std::atomic<std::uint64_t> alarms[64];  // virtual due time per signal; 0: none

std::uint64_t real_us() noexcept {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);  // vDSO: no system call
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000000u +
           static_cast<std::uint64_t>(ts.tv_nsec) / 1000u;
}

// next_alarm() is the earliest virtual alarm, UINT64_MAX if none.
std::uint64_t next_alarm() noexcept {
    std::uint64_t next = UINT64_MAX;
    for (const auto& a : alarms) {
        const std::uint64_t d = a.load(std::memory_order_relaxed);  // relaxed: one driving thread
        if (d != 0 && d < next) next = d;
    }
    return next;
}

// advance_to(t) sets virtual time to t (never backwards) and turns every
// alarm due by then into a deferred signal of this thread. Mask set: the
// caller runs them (run_deferred) or leaves them to its irq_restore().
void advance_to(std::uint64_t t) noexcept {
    if (t > virtual_now.load(std::memory_order_relaxed))  // relaxed: one driving thread
        virtual_now.store(t, std::memory_order_relaxed);  // relaxed: as above
    for (int s = 1; s < 64; ++s) {
        const std::uint64_t d = alarms[s].load(std::memory_order_relaxed);  // relaxed: as above
        if (d != 0 && d <= t) {
            alarms[s].store(0, std::memory_order_relaxed);  // relaxed: as above
            irq.deferred.fetch_or(std::uint64_t{1} << s, std::memory_order_relaxed);  // relaxed: same thread
            irq.pending.store(1, std::memory_order_relaxed);  // relaxed: same thread, after the bit
        }
    }
}

// wait_for_signals(wait, tp) opens the virtual mask and waits in ppoll()
// with the kairos signals unblocked (tp: nullptr = no timeout). The kairos
// signals are blocked for real on entry.
void wait_for_signals(const sigset_t* wait, const timespec* tp) noexcept {
    irq.masked.store(0, std::memory_order_relaxed);  // relaxed: same thread; handlers run in ppoll
    fence();
    ppoll(nullptr, 0, tp, wait);
    fence();
    irq.masked.store(1, std::memory_order_relaxed);  // relaxed: same thread
}

}  // namespace

// unmask_step() is the slow part of irq_restore(0) short of
// the switch: clear the summary, drain deferred handlers, then, if a switch
// is requested and this is thread context, consume the request and return
// true with the mask still set (the caller switches); otherwise clear the
// mask and return false, or first repeat if the summary was set again
// meanwhile (a signal, or a switch a handler requested). pending and
// switch_req are consumed with plain stores: a handler can only set them,
// pending is cleared before the flags behind it are read, and the decision
// that follows serves any request made before it. In a handler a requested
// switch waits for the interrupted thread's next kernel exit and the mask
// stays set (false, pending set). Mask set on entry. Inline in unmask();
// kairos_host_unmask_step() is its copy for switch.S of a port whose
// routines unmask (KAIROS_PORT_DIRECT_SWITCH), called right after a
// switch: so that copy first ends an AddressSanitizer stack switch, before
// any instrumented code.
namespace {
__attribute__((always_inline)) inline bool unmask_step() noexcept {
    for (;;) {
        // relaxed (all): same-thread flags, ordered by the fences.
        irq.pending.store(0, std::memory_order_relaxed);
        fence();
        if (irq.deferred.load(std::memory_order_relaxed) != 0) run_deferred();
        if (irq.switch_req.load(std::memory_order_relaxed) != 0) {
            if (irq.isr_depth.load(std::memory_order_relaxed) != 0) {
                irq.pending.store(1, std::memory_order_relaxed);
                return false;
            }
            irq.switch_req.store(0, std::memory_order_relaxed);
            return true;
        }
        fence();
        irq.masked.store(0, std::memory_order_relaxed);
        fence();
        if (irq.pending.load(std::memory_order_relaxed) == 0) return false;  // nothing arrived since
        irq.masked.store(1, std::memory_order_relaxed);  // re-mask to drain again
        fence();
    }
}
}  // namespace

extern "C" bool kairos_host_unmask_step() noexcept {
    kairos::host::finish_switch();
    return unmask_step();
}

// unmask(): unmask_step() and the switches it asks for. A port
// with a direct switch has routines that end unmasked, as irq_restore(0)
// (switch.S, which also loops through any later switch), so one switch ends
// it there; elsewhere the routine returns with the mask set, and the loop
// drains again.
void kairos::host::unmask() noexcept {
    while (unmask_step()) {
        kairos::host::switch_now();
        kairos::host::finish_switch();
        if (KAIROS_PORT_DIRECT_SWITCH) return;
    }
}

namespace kairos::port {

std::uint64_t now_us() noexcept {
    // relaxed: the mode and virtual time change on the one thread that
    // drives them; another thread may read an older value, never a
    // smaller one than it read before (coherence of each variable).
    if (virtual_on.load(std::memory_order_relaxed)) return virtual_now.load(std::memory_order_relaxed);
    return real_us() + real_offset.load(std::memory_order_relaxed);  // relaxed: as above
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
    if (run_deferred() || irq.switch_req.load(std::memory_order_relaxed) != 0) {  // relaxed: same thread
        pthread_sigmask(SIG_SETMASK, &old, nullptr);
        return;
    }
    sigset_t wait = old;
    for (int s = 1; s < 64; ++s) {
        if (sigismember(&kairos_signals, s) == 1) sigdelset(&wait, s);
    }
    timespec ts{};
    timespec* tp = nullptr;
    // relaxed: this thread drives the virtual clock.
    if (virtual_on.load(std::memory_order_relaxed)) {
        // Signals already pending run first (timespec zero: no wait); if
        // none made a thread runnable, time jumps to the next event.
        wait_for_signals(&wait, &ts);
        const std::uint64_t target = deadline_us < next_alarm() ? deadline_us : next_alarm();
        if (irq.switch_req.load(std::memory_order_relaxed) != 0 || target == UINT64_MAX) {  // relaxed: same thread
            if (irq.switch_req.load(std::memory_order_relaxed) == 0) wait_for_signals(&wait, nullptr);  // relaxed: as above
            pthread_sigmask(SIG_SETMASK, &old, nullptr);
            return;
        }
        advance_to(target);
        run_deferred();
        pthread_sigmask(SIG_SETMASK, &old, nullptr);
        return;
    }
    if (deadline_us != UINT64_MAX) {
        const std::uint64_t now = now_us();
        const std::uint64_t d = deadline_us > now ? deadline_us - now : 0;
        ts.tv_sec = static_cast<time_t>(d / 1000000u);
        ts.tv_nsec = static_cast<long>((d % 1000000u) * 1000u);
        tp = &ts;
    }
    wait_for_signals(&wait, tp);
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

void use_virtual_clock(bool on) noexcept {
    // relaxed (all): the thread that drives the clock is the only writer.
    if (virtual_on.load(std::memory_order_relaxed) == on) return;
    const std::uint64_t real = real_us() + real_offset.load(std::memory_order_relaxed);
    if (on) {
        const std::uint64_t v = virtual_now.load(std::memory_order_relaxed);
        virtual_now.store(v > real ? v : real, std::memory_order_relaxed);
    } else {
        const std::uint64_t v = virtual_now.load(std::memory_order_relaxed);
        if (v > real) real_offset.fetch_add(v - real, std::memory_order_relaxed);
    }
    virtual_on.store(on, std::memory_order_relaxed);
}

bool virtual_clock() noexcept {
    return virtual_on.load(std::memory_order_relaxed);  // relaxed: see use_virtual_clock()
}

void set_virtual_alarm(int signo, std::uint64_t due_us) noexcept {
    if (signo < 1 || signo > 63) return;
    // relaxed: one driving thread; 0 is "none", so due 0 becomes 1 (due at once).
    alarms[signo].store(due_us == UINT64_MAX ? 0 : due_us == 0 ? 1 : due_us, std::memory_order_relaxed);
}

void advance_clock(std::uint64_t us) noexcept {
    if (!virtual_clock()) return;
    const std::uint64_t now = kairos::port::now_us();
    const std::uint64_t end = now > UINT64_MAX - 1 - us ? UINT64_MAX - 1 : now + us;
    const kairos::port::irq_state s = kairos::port::irq_disable();
    for (;;) {
        // Masked by the caller: straight to the end; the due handlers wait
        // for its irq_restore(), once each (a periodic alarm cannot re-arm
        // meanwhile: its ticks coalesce, as a pending interrupt's do).
        const std::uint64_t a = s != 0 ? end : next_alarm();
        const std::uint64_t t = a < end ? a : end;
        advance_to(t);
        if (t == end) break;
        run_deferred();
    }
    kairos::port::irq_restore(s);
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
#if KAIROS_ASAN
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

namespace {
// asan_start(from, to): a switch from the stack holding `from` to the one
// holding `to` is about to happen.
void asan_start(const void* from, const void* to) noexcept {
    asan_from = asan_find(from);
    const asan_stack* next = asan_find(to);
    asan_switching = true;
    __sanitizer_start_switch_fiber(&asan_from->fake, next->lo, next->size);
}
}  // namespace

void kairos::host::start_switch(const void* to) noexcept { asan_start(__builtin_frame_address(0), to); }

extern "C" void* kairos_host_pick(void* handle) noexcept {
    void* next = kairos_sched_switch(handle);
    if (next != handle) asan_start(handle, next);
    return next;
}
#else
void kairos::host::register_stack(const void*, std::size_t) noexcept {}
extern "C" void* kairos_host_pick(void* handle) noexcept { return kairos_sched_switch(handle); }
#endif

extern "C" void kairos_host_thread_start(void (*entry)(void*), void* arg) noexcept {
    kairos::host::finish_switch();
    // What irq_restore(0) in the switching-out thread would finish; a port
    // with a direct switch has done it in its routine already.
    if (!KAIROS_PORT_DIRECT_SWITCH) kairos::host::unmask();
    entry(arg);
    kairos_port_panic("thread entry returned", KAIROS_FILE, __LINE__);
}

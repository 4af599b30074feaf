// SPDX-License-Identifier: MIT
// Kernel internals shared by the kernel's sources in src/ (with
// priority_inheritance.hpp, included below). Everything here is touched
// only with interrupts masked (port::irq_disable()), which is the kernel's
// one lock.
#pragma once

#include <kairos/detail/clist.hpp>
#include <kairos/detail/prio_bitmap.hpp>
#include <kairos/kernel/msg.hpp>
#include <kairos/kernel/mutex.hpp>
#include <kairos/kernel/thread.hpp>
#include <kairos/kernel/thread_flags.hpp>
#include <kairos/kernel/trace.hpp>
#include <kairos/config.hpp>
#include <kairos/port.hpp>
#include <kairos/timer_queue.hpp>

#include <cstddef>
#include <cstdint>

namespace kairos::kernel {
namespace impl {
struct tcb;
}

// mutex_access: the kernel's view of a mutex word.
struct mutex_access {
    static std::uint32_t& word(mutex& m) noexcept { return m.word_; }
    // set_waiters(m, w, head) stores the pid of the first waiter, head
    // (nullptr: none), in m's word, which the caller read as w: its owner
    // and protocol bit, unchanged since, are taken from w rather than
    // reloaded. Always inline: a few instructions on every contended lock.
    __attribute__((always_inline)) static void set_waiters(mutex& m, std::uint32_t w,
                                                           const impl::tcb* head) noexcept;
};

}  // namespace kairos::kernel

namespace kairos::kernel::impl {

struct tcb;

// tcb: one slot of the thread table. The run-queue link is the base class
// so a list node converts back with static_cast. Fields are ordered for
// Thumb-1's short load encodings, whose immediate offsets reach bytes up to
// 31, halfwords up to 62 and words up to 124: the switch's context handle
// first, then the byte and halfword fields the hot paths read (pid,
// priorities, state, the flags wait), then the words of the hand-offs;
// what only creation, timeouts and diagnostics read comes last.
struct tcb : detail::clist_node {
    void* ctx = nullptr;  // context handle saved by the port
    pid id = no_pid;  // no_pid while the slot is free
    std::uint16_t prio = 0;       // effective priority (inheritance included)
    std::uint16_t base_prio = 0;  // priority set by create/change_priority
    // st is never thread_state::running: a runnable thread is pending, the
    // current one included (a switch writes no state; state() reports it).
    thread_state st = thread_state::stopped;
    bool wants_reply = false;  // blocked_send from send_receive()
    // flags
    flags_t flags = 0, wait_mask = 0;
    std::uint8_t wait_mode = 0;
    bool peer_exited = false;  // released from blocked_send: the receiver exited
    std::uint8_t n_held_pi = 0;  // entries of held_pi in use
    std::uint16_t n_held = 0;    // mutexes owned, of either protocol
    // msg queue (optional, power of two)
    std::uint16_t q_mask = 0, q_head = 0, q_count = 0;
    unsigned char* stack_lo = nullptr;
    tcb* next_wait = nullptr;  // next in a mutex's waiters or a receiver's senders
    // msg
    // wait_data shares the slot: what a wait list's object passes between
    // waker and waiter (a queue's element), while blocked_wait.
    union {
        msg* msg_slot = nullptr;  // receive target, or the message being sent
        void* wait_data;
    };
    tcb* senders = nullptr;     // blocked senders, priority order
    // the wait lists (wait_list.cpp) share the slot: a thread is in at most
    // one of blocked_mutex and blocked_wait.
    union {
        mutex* waiting_for = nullptr;  // while blocked_mutex
        // blocked_wait: the head of the object's waiters while queued there;
        // the waker clears it, a deadline leaves it (wait_done() tells
        // success from timeout by it).
        tcb** wait_list;
    };
    msg* reply_slot = nullptr;  // send_receive() reply target
    msg* queue = nullptr;
    std::uint32_t dropped = 0;
    mutex* held_pi[KAIROS_MUTEX_MAX_HELD] = {};  // inheritance mutexes owned
    // timer: the thread's entry in the kernel's timer queue (timers), armed
    // while in sleep_us() or a wait with a deadline;
    // timer_owner() maps it back to its slot.
    timer_node timer;
    void (*fn)(void*) = nullptr;
    void* arg = nullptr;
    const char* name = nullptr;
    std::size_t stack_size = 0;
    std::uint16_t next_gen = 0;  // generation of the slot's next pid
};

// timer_owner(n) is the thread whose timer n is. Only the slots of the
// thread table arm timers (not the kernel's idle context), so n's slot is
// its distance from the first slot's timer: no pointer back in every tcb,
// which keeps a tcb at a power-of-two size on 32-bit cores with the default
// KAIROS_MUTEX_MAX_HELD, and a slot index a shift, not a multiply.
tcb* timer_owner(timer_node* n) noexcept;

enum : std::uint8_t { wait_any = 1, wait_all = 2, wait_one = 3 };

// The kernel's trace hooks (kernel/trace.hpp, src/trace.cpp): one call per
// event site with KAIROS_TRACE, nothing at all (arguments unevaluated)
// without. trace_switch() also keeps the per-thread statistics; it is
// called by kairos_sched_switch() only, masked. Masked or any context for
// the others.
#if KAIROS_TRACE
void trace_switch(const tcb* from, const tcb* to) noexcept;
void trace_blocked(const tcb* t) noexcept;
void trace_create(const tcb* t) noexcept;
#  define KAIROS_TRACE_SWITCH(from, to) ::kairos::kernel::impl::trace_switch(from, to)
#  define KAIROS_TRACE_BLOCKED(t) ::kairos::kernel::impl::trace_blocked(t)
#  define KAIROS_TRACE_CREATE(t) ::kairos::kernel::impl::trace_create(t)
#else
#  define KAIROS_TRACE_SWITCH(from, to) static_cast<void>(0)
#  define KAIROS_TRACE_BLOCKED(t) static_cast<void>(0)
#  define KAIROS_TRACE_CREATE(t) static_cast<void>(0)
#endif
#define KAIROS_TRACE_READY(t) KAIROS_TRACE_EVENT(ready, (t)->id, 0)

extern tcb threads[max_threads + 1];  // [0] is the boot context

// sched_core: what every switch decision reads, in one object so that the
// switch reaches all of it from one address (on Arm one literal load, not
// one per variable). Reached through the references below. The order
// follows the core's loads: the run queue first, so a level's list is
// addressed from the base itself; where load offsets are narrow
// (KAIROS_NARROW_LOAD_OFFSETS, Thumb-1: words up to 124 bytes, bytes up to
// 31) the small hot fields first, then the run queue (its bitmap first),
// so everything a decision reads stays one load from the base.
struct sched_core {
#if !KAIROS_NARROW_LOAD_OFFSETS
    detail::run_queue<prio_levels, runqueue_encoding> rq;
#endif
    tcb* current = &threads[0];
    // slow_pick is ~0u whenever the next decision may need the slow path
    // (sched.cpp pick_slow()): a sleep deadline is armed, the idle thread
    // asked to stop, or a canary was found broken; 0 otherwise. As a mask
    // it vetoes the run queue's answer (run_queue::best_unless()), so the
    // common decision is one test for both.
    std::uint32_t slow_pick = 0;
    bool started = false;  // the kernel has started: between run()'s start and its return
#if KAIROS_NARROW_LOAD_OFFSETS
    detail::run_queue<prio_levels, runqueue_encoding> rq;
#endif
};
extern sched_core core;
inline constexpr auto& rq = core.rq;
inline constexpr auto& current = core.current;
inline constexpr auto& slow_pick = core.slow_pick;
inline constexpr auto& started = core.started;
inline constexpr std::uint32_t slow_pick_on = ~0u;  // slow_pick's only non-zero value

// A pid is a slot number (its low slot_bits bits, 1..max_threads) and a
// generation (the bits above, up to bit 14: a pid fits the 15-bit fields of
// the mutex word and is positive). The generation advances every time a
// slot is reused, so a pid that outlived its thread names no one until its
// slot has been reused 2^(15 - slot_bits) times.
inline constexpr unsigned slot_bits = [] {
    unsigned b = 1;
    while ((1u << b) <= max_threads) ++b;
    return b;
}();
inline constexpr unsigned slot_mask = (1u << slot_bits) - 1;
inline constexpr unsigned generations = 1u << (15 - slot_bits);
static_assert(generations >= 2, "a pid needs at least one generation bit");

// irq_guard masks interrupts for a scope. Leaving the scope may switch
// (a switch requested inside happens at the unmasking irq_restore()).
struct irq_guard {
    port::irq_state s;
    irq_guard() noexcept : s(port::irq_disable()) {}
    ~irq_guard() { port::irq_restore_kernel(s); }
    irq_guard(const irq_guard&) = delete;
    irq_guard& operator=(const irq_guard&) = delete;
};

// The helpers below are on every mutex/msg/flags hand-off, so they are
// inline here rather than calls into sched.cpp. In -Os builds
// (__OPTIMIZE_SIZE__: the MCU presets) KAIROS_SIZE_NOINLINE keeps
// block_current() one out-of-line copy: GCC's size heuristics otherwise
// inline it (with the run-queue removal) into mutex::lock() and the flags
// wait while the other callers call a shared copy anyway. make_runnable()
// is left to GCC. Both are flatten: the run-queue operation inside them is
// inlined into their one body instead of being another call
// (docs/targets.md, "Code size", has what each choice costs).
#if defined(__OPTIMIZE_SIZE__)
#    define KAIROS_SIZE_NOINLINE __attribute__((noinline))
#else
#    define KAIROS_SIZE_NOINLINE
#endif

// lookup(p) returns the slot of a live thread, or nullptr: also for a
// stale pid (the slot is free, id no_pid, or reused, another generation)
// and for negative values (no id is negative).
inline tcb* lookup(pid p) noexcept {
    const unsigned slot = static_cast<unsigned>(p) & slot_mask;
    if (slot - 1 >= max_threads) return nullptr;  // 0 or beyond the table
    tcb* t = &threads[slot];
    // As halfwords: no sign extension (and Thumb-1 has no ldrsh #imm).
    return static_cast<std::uint16_t>(t->id) == static_cast<std::uint16_t>(p) ? t : nullptr;
}

// owner_slot(p) is the slot of p, which must be live (a mutex owner: a
// thread cannot exit while it owns one).
inline tcb* owner_slot(pid p) noexcept { return &threads[static_cast<unsigned>(p) & slot_mask]; }

// first_waiter(w) is the first waiter of a mutex whose word is w, or
// nullptr. A waiter is blocked in lock() and cannot exit, so the pid in the
// word is live: its slot is the answer, no generation check needed.
inline tcb* first_waiter(std::uint32_t w) noexcept {
    const unsigned p = w >> mutex::waiter_shift;
    return p == 0 ? nullptr : &threads[p & slot_mask];
}

// slice_owner is the thread whose time slice runs (src/time_slice.cpp),
// nullptr when the next tick starts a fresh one. slice_done(t) ends t's
// slice when t blocks, yields or exits, so it gets a fresh one when it runs
// again. Nothing at all without KAIROS_TIME_SLICE_US. Masked.
// slice_shared(t): t runs or is about to, or just joined the running
// thread's level; if its level holds another runnable thread, slices must
// be checked: unless the tick runs for them already (kairos_slice_ticking),
// slice_tick_start() sets the flag and asks the port for its tick
// (kairos_slice_tick_start()). Masked.
#if KAIROS_TIME_SLICE_US
extern tcb* slice_owner;
inline void slice_done(const tcb* t) noexcept {
    if (slice_owner == t) slice_owner = nullptr;
}
void slice_tick_start() noexcept;
__attribute__((always_inline)) inline void slice_shared(const tcb* t) noexcept {
    if (t->next != t && !kairos_slice_ticking) slice_tick_start();
}
#else
inline void slice_done(const tcb*) noexcept {}
inline void slice_shared(const tcb*) noexcept {}
#endif

// make_ready(t) is where a thread becomes runnable: t, queued nowhere,
// joins the end of its level in state pending (with time slicing: at the
// running thread's level, that level is now shared, slice_shared()). It requests no switch and
// records no trace event: make_runnable() does both for a wake-up; deadline
// expiry (whose callers decide next), thread creation (its own event and
// switch rule) and a runnable thread's priority change (set_priority(),
// a requeue) call make_ready() itself. Interrupts masked.
inline void make_ready(tcb* t) noexcept {
    t->st = thread_state::pending;
    rq.push_back(t, t->prio);
    if (KAIROS_TIME_SLICE_US != 0 && t->prio == current->prio) slice_shared(t);
}

// make_runnable(t) makes t ready (make_ready()) and requests a switch if t
// beats the running thread: only while the kernel runs, so a wake-up
// before run() does not start switching from the boot context. Interrupts
// masked.
__attribute__((flatten)) inline void make_runnable(tcb* t) noexcept {
    KAIROS_TRACE_READY(t);
    make_ready(t);
    if (t->prio < current->prio && started) port::request_switch();
}

// block_current(s) takes the running thread off the run queue in state s
// and requests a switch. The switch happens when the caller unmasks, which
// must then be with interrupts enabled (asserted by the callers).
__attribute__((flatten)) inline KAIROS_SIZE_NOINLINE void block_current(thread_state s) noexcept {
    rq.remove(current, current->prio);
    current->st = s;
    slice_done(current);
    KAIROS_TRACE_BLOCKED(current);
    port::request_switch();
}

// arm_deadline(t, us) arms t's timer us microseconds from now; when it
// expires before anything else wakes t, t becomes runnable (a sleep ends, a
// mutex wait gives up: mutex_timed_out()). A timeout of timeout_forever or
// more arms nothing: t waits until something else wakes it. Masked.
void arm_deadline(tcb* t, std::uint64_t us) noexcept;

// expire(now) makes every thread whose deadline is due at now runnable
// (no switch request: the caller decides next). Masked. Weak: defined with
// arm_deadline() (deadline.cpp), the only code that arms a thread's timer,
// so the scheduler calls it only while the queue is not empty, and a
// program that never arms a deadline does not link it.
void expire(std::uint64_t now) noexcept __attribute__((weak));

// timers: the kernel's one timer queue, every thread's deadline (one timer
// per slot, so it never fills): sleep_us() and every _for/_until wait.
extern timer_queue<max_threads> timers;

// disarm_deadline(t) disarms t's timer if it is armed. Masked.
inline void disarm_deadline(tcb* t) noexcept { timers.disarm(t->timer); }

// receiver_of(t) is the thread in whose senders t, blocked_send, waits
// (found by a scan of the table: rare paths only, a priority change or a
// deadline of a blocked sender), or nullptr. Masked.
tcb* receiver_of(const tcb* t) noexcept;

// mutex_timed_out(t) takes t, blocked in mutex::lock_for(), off its mutex's
// waiters and lowers the owners that t had raised. Masked. Weak: defined
// with lock_for() (mutex_timeout.cpp), so a program that never waits with
// a deadline does not link it, and never reaches the call.
void mutex_timed_out(tcb* t) noexcept __attribute__((weak));

// wait_timed_out(t) takes t, blocked_wait, off its object's waiters at its
// deadline; wait_requeue(t, p) moves it there to priority p. Masked. Weak:
// defined in wait_list.cpp, linked only by programs that use a semaphore,
// condition variable or queue (the only way into blocked_wait).
void wait_timed_out(tcb* t) noexcept __attribute__((weak));
void wait_requeue(tcb* t, unsigned p) noexcept __attribute__((weak));

// wait_block(list, us) queues the running thread among the waiters at
// list (priority order, FIFO among equals) in blocked_wait, with a deadline
// us from now (none from timeout_forever up), and requests the switch,
// which happens when the caller unmasks. Masked, thread context (the caller
// asserted it). wait_done() after the wait: true if a waker served the
// thread (wait_wake()), false at the deadline.
void wait_block(tcb*& list, std::uint64_t us, void* data = nullptr) noexcept;
inline bool wait_done(tcb* self_tcb) noexcept {
    const bool served = self_tcb->wait_list == nullptr;
    self_tcb->wait_list = nullptr;
    return served;
}

// wait_masked(list, s, us, data) ends a masked section (s: what
// irq_disable() returned) in which the caller found it must wait: us 0
// returns false at once; otherwise it asserts that the caller may block,
// waits as wait_block() and returns wait_done(). Returns unmasked.
bool wait_masked(tcb*& list, port::irq_state s, std::uint64_t us, void* data = nullptr) noexcept;

// wait_wake(list) takes the first waiter off list, disarms its deadline and
// makes it runnable (a switch is requested if it beats the running thread);
// returns it, or nullptr if nobody waits. The caller passes the object
// (wait_data) before or after, still masked. Masked, any context.
tcb* wait_wake(tcb*& list) noexcept;

// set_priority(t, p) changes t's effective priority wherever t is queued
// (run queue, a mutex's waiters, a receiver's senders) and propagates an
// increase to the owner of an inheritance mutex t waits for. Masked.
void set_priority(tcb* t, unsigned p) noexcept;

// prio_queue_insert(head, t): insert t into a singly linked wait list
// sorted by priority, FIFO among equals. prio_queue_remove unlinks t.
void prio_queue_insert(tcb*& head, tcb* t) noexcept;
void prio_queue_remove(tcb*& head, tcb* t) noexcept;

// assert_can_block(): thread context with interrupts enabled before the
// mask was taken (s is the state irq_disable() returned). Inline: nothing
// at all without KAIROS_ASSERTS.
inline void assert_can_block(port::irq_state s) noexcept {
    KAIROS_ASSERT(s == 0 && !port::in_isr());
    KAIROS_ASSERT(started && current != &threads[0]);
    (void)s;
}

}  // namespace kairos::kernel::impl

namespace kairos::kernel {
inline void mutex_access::set_waiters(mutex& m, std::uint32_t w, const impl::tcb* head) noexcept {
    // The pid as a halfword: positive, and Thumb-1 has no ldrsh #imm.
    const std::uint32_t h = head == nullptr ? 0u : static_cast<std::uint16_t>(head->id);
    m.word_ = (w & 0xFFFFu) | (h << mutex::waiter_shift);
}
}  // namespace kairos::kernel

namespace kairos::kernel::impl {
// set_owner(m, p) stores p as m's owner; the protocol bit and the waiters
// stay. Masked.
inline void set_owner(mutex& m, pid p) noexcept {
    std::uint32_t& w = mutex_access::word(m);
    w = (w & ~mutex::pid_mask) | static_cast<std::uint32_t>(p);
}

// hand_over(m, pi, next) makes next, the first waiter, the owner of m at once
// (nobody can barge in between) and unlinks it in O(1): it is the head of
// the sorted waiters. The word is written once: owner, protocol bit (pi,
// 0 or mutex::pi_bit) and the next waiter. Masked.
__attribute__((always_inline)) inline void hand_over(mutex& m, std::uint32_t pi, tcb* next) noexcept {
    const tcb* after = next->next_wait;
    const std::uint32_t waiters =
        after == nullptr ? 0u : static_cast<std::uint32_t>(static_cast<std::uint16_t>(after->id));
    mutex_access::word(m) = (waiters << mutex::waiter_shift) | pi | static_cast<std::uint16_t>(next->id);
    ++next->n_held;
    next->next_wait = nullptr;
    next->waiting_for = nullptr;
    KAIROS_TRACE_EVENT(mutex_lock, reinterpret_cast<std::uintptr_t>(&m), next->id);
}
}  // namespace kairos::kernel::impl

#include "priority_inheritance.hpp"

namespace kairos::kernel::impl {
// wait_for_mutex(m, self) queues self among m's waiters (priority order,
// FIFO among equals), takes it off the run queue and raises an inheritance
// owner; the switch happens when the caller unmasks. Precondition: m is
// owned. Always inline: it is lock()'s path (and lock_for()'s own copy).
__attribute__((always_inline)) inline void wait_for_mutex(mutex& m, tcb* self) noexcept {
    const std::uint32_t w = m.word();
    tcb* head = first_waiter(w);
    if (head == nullptr || self->prio < head->prio) {  // the new head: no walk
        self->next_wait = head;
        head = self;
    } else {
        prio_queue_insert(head->next_wait, self);  // somewhere behind the head
    }
    if (head == nullptr) __builtin_unreachable();  // self, or the old head
    mutex_access::set_waiters(m, w, head);
    self->waiting_for = &m;
    block_current(thread_state::blocked_mutex);
    inherit_raise(w, self->prio);
}
}  // namespace kairos::kernel::impl

// SPDX-License-Identifier: MIT
// The scheduler: thread table, run queue, switching decisions, priority
// changes (priority inheritance: priority_inheritance.hpp/.cpp; arming and
// expiring deadlines: deadline.cpp).
#include "kernel_impl.hpp"

#include <kairos/config.hpp>
#include <kairos/detail/decimal.hpp>


#if KAIROS_ASAN
extern "C" void __asan_unpoison_memory_region(void const volatile* addr, std::size_t size);
#endif

namespace kairos::kernel {
namespace impl {

tcb threads[max_threads + 1];

timer_queue<max_threads> timers;
sched_core core;  // constant-initialised: its members have constant initialisers

namespace {

tcb* const boot = &threads[0];  // the context that called run()
bool stop_requested = false;  // idle thread asks to return to boot
run_options options;
unsigned live = 0;
tcb* idle_tcb = nullptr;  // the idle thread while run() has one
// overflowed: the thread whose canary a switch found broken. From then on
// every decision returns to the boot context, which reports it on its own
// stack (run()).
const tcb* overflowed = nullptr;

constexpr unsigned char stack_fill = 0xA5;
// The canary: the lowest 8 bytes of every stack, each word of them holding
// the stack's own lowest address (RIOT's scheme: neither fill nor zero,
// different for every stack, and checked without a constant to load). The
// lowest word is compared at every switch away from the thread and at
// every yield() that keeps it running.
constexpr std::size_t canary_size = 8;
static_assert(canary_size % sizeof(std::uintptr_t) == 0, "the canary is whole words");

// put_canary(lo) writes the canary of the stack whose lowest byte is lo.
void put_canary(unsigned char* lo) noexcept {
    const auto w = reinterpret_cast<std::uintptr_t>(lo);
    for (std::size_t i = 0; i < canary_size; i += sizeof w) __builtin_memcpy(lo + i, &w, sizeof w);
}
// kernel_stack: what a thread's stack needs beyond the port's part
// (port::min_stack_size()): the kernel's frames on the deepest path a thread
// reaches (a blocking call whose switch idles in port::idle()) and a small
// frame of the thread's own function. Sanitizers grow every frame.
#if KAIROS_ASAN || KAIROS_TSAN
constexpr std::size_t kernel_stack = 4096;
#else
constexpr std::size_t kernel_stack = 256;
#endif
// The boot context's stack is not ours; its slot points here so the check
// at every switch needs no "is this the boot context" branch (run() writes
// it).
alignas(std::uintptr_t) unsigned char boot_canary[canary_size];

// reschedule() requests a switch, but only while the kernel runs: a
// wake-up before run() (or from a signal after it) must not start switching
// from the boot context.
void reschedule() noexcept {
    if (started) port::request_switch();
}

char* put_string(char* p, const char* s, std::size_t max) noexcept {
    for (std::size_t i = 0; s != nullptr && s[i] != '\0' && i < max; ++i) *p++ = s[i];
    return p;
}

// report_overflow(t) halts with t's name and stack size. Runs in the boot
// context (run()), never on t's overflowed stack.
[[noreturn]] __attribute__((cold, noinline)) void report_overflow(const tcb* t) noexcept {
    char buf[160];
    char* p = put_string(buf, "stack overflow in thread '", 40);
    p = put_string(p, t->name != nullptr ? t->name : "?", 40);
    p = put_string(p, "' (pid ", 10);
    p = detail::put_decimal(p, static_cast<std::uint32_t>(t->id));
    p = put_string(p, ", stack ", 10);
    p = detail::put_decimal(p, static_cast<std::uint32_t>(t->stack_size));
    p = put_string(p, " bytes)", 10);
    *p = '\0';
    kairos_port_panic(buf, KAIROS_FILE, __LINE__);
}

// stack_intact(t): the lowest canary word of t's stack is unchanged. One
// word load (stacks are stack_align aligned) and one compare.
inline bool stack_intact(const tcb* t) noexcept {
    std::uintptr_t w;
    __builtin_memcpy(&w, __builtin_assume_aligned(t->stack_lo, sizeof w), sizeof w);
    return w == reinterpret_cast<std::uintptr_t>(t->stack_lo);
}

// make_current(cur, next) ends every switch decision that hands the CPU
// from cur to next (kairos_sched_switch(), kairos_sched_yield(), yield()'s
// direct switch): the trace record, next becomes the current thread, the
// slice tick starts if next shares its level (slice_shared()), and next's
// context handle is returned for the port to resume. Masked.
__attribute__((always_inline)) inline void* make_current(const tcb* cur, tcb* next) noexcept {
    KAIROS_TRACE_SWITCH(cur, next);
    static_cast<void>(cur);
    current = next;
    slice_shared(next);
    return next->ctx;
}

// yield_decision(cur, veto) is kernel::yield()'s one decision, wherever the
// port lets it be made (port.hpp, "direct yield"): it moves cur, the
// running thread, to the tail of its level, ends cur's time slice and
// returns the thread to run next, the new head of cur's level (cur itself
// when it is alone there: no switch at all), when that fast answer is the
// scheduler's: no slow decision is due (slow_pick: deadlines, a stop, an
// overflow), no better level is runnable and cur's canary is intact. Otherwise, or when
// veto is non-zero (the caller's reason to decline, e.g. the mask was
// already taken), it returns nullptr: the full decision
// (kairos_sched_switch(), after request_switch()) must be made. A caller
// that only asks whether cur keeps running (KeepOnly: any other answer
// requests the full decision anyway) gets the next thread untested when it
// is another. Masked. Always inline: it is the whole of every yield.
template <bool KeepOnly = false>
__attribute__((always_inline)) inline tcb* yield_decision(tcb* cur, std::uint32_t veto) noexcept {
    rq.rotate_past(cur, cur->prio);
    slice_done(cur);
    tcb* const next = static_cast<tcb*>(cur->next);  // the new head
    if (next == nullptr) __builtin_unreachable();  // cur is listed: its link is set
    if (KeepOnly && next != cur) return next;
    if ((veto | slow_pick) != 0 || !rq.best_is(cur->prio) || !stack_intact(cur)) return nullptr;
    return next;
}

// idle_deadline() is what the kernel passes to port::idle(): the earliest
// deadline, or UINT64_MAX for none. A deadline that is itself UINT64_MAX
// (a clock just below the wrap) is passed one microsecond early, so it is
// not taken for "none"; idle() may return early anyway.
std::uint64_t idle_deadline() noexcept {
    if (timers.empty()) return UINT64_MAX;
    const std::uint64_t d = timers.next_due();
    return d == UINT64_MAX ? d - 1 : d;
}

#if !KAIROS_PORT_IDLE_IN_SWITCH
// The kernel's own idle context, for ports whose switch must not wait for
// an interrupt (port_config.hpp): what pick_slow() returns when nothing is
// runnable and there is no idle thread. Outside the thread table (no pid,
// no slot), with a canary like a thread's; its stack is initialised by
// every run(), which checks that it is at least stack_min().
tcb idle_ctx;
constexpr std::size_t idle_ctx_stack_size = 768;
alignas(16) unsigned char idle_ctx_stack[idle_ctx_stack_size];

// idle_ctx_main() waits in port::idle() until a switch has something to
// decide: a thread is runnable, a sleep deadline is due, or run() should
// return. Thread mode, so every interrupt, whatever its priority, can run
// while it waits.
[[noreturn]] void idle_ctx_main(void*) {
    for (;;) {
        const port::irq_state s = port::irq_disable();
        const bool decide = rq.any() || (timers.empty() ? options.return_when_idle
                                                        : timers.next_due() <= port::now_us());
        if (decide) {
            port::request_switch();
        } else {
            port::idle(idle_deadline());
        }
        port::irq_restore_kernel(s);
    }
}

// idle_ctx_start() prepares the idle context for one run().
bool idle_ctx_start() noexcept {
    if (idle_ctx_stack_size < stack_min()) return false;
    put_canary(idle_ctx_stack);
    idle_ctx = tcb{};
    idle_ctx.name = "idle context";
    idle_ctx.stack_lo = idle_ctx_stack;
    idle_ctx.stack_size = idle_ctx_stack_size;
    idle_ctx.prio = idle_ctx.base_prio = static_cast<std::uint16_t>(prio_levels - 1);
    idle_ctx.ctx = port::stack_init(idle_ctx_stack, idle_ctx_stack_size, idle_ctx_main, nullptr);
    return true;
}
#endif

void thread_entry(void* arg) {
    tcb* t = static_cast<tcb*>(arg);
    t->fn(t->arg);
    kernel::exit();
}

[[noreturn]] void idle_main(void*) {
    for (;;) {
        if (options.idle_hook != nullptr) options.idle_hook();
        const port::irq_state s = port::irq_disable();
        if (!timers.empty()) expire(port::now_us());
        tcb* self_tcb = current;
        if (rq.best() == self_tcb && self_tcb->next == self_tcb) {  // only idle can run
            if (timers.empty() && options.return_when_idle) {
                stop_requested = true;
                slow_pick = slow_pick_on;
                port::request_switch();
            } else {
                port::idle(idle_deadline());
            }
        } else {
            rq.rotate(self_tcb->prio);  // let equals run, then whoever woke up
            port::request_switch();
        }
        port::irq_restore_kernel(s);
    }
}

pid create(void* stack, std::size_t size, unsigned prio, void (*fn)(void*), void* arg,
           const char* nm, unsigned flags) noexcept {
    if (stack == nullptr) return err_stack_size;
    if (reinterpret_cast<std::uintptr_t>(stack) % port::stack_align != 0) return err_stack_align;
    size -= size % port::stack_align;
    if (size < stack_min()) return err_stack_size;
    KAIROS_ASSERT(fn != nullptr && !port::in_isr());
    auto* lo = static_cast<unsigned char*>(stack);
#if KAIROS_ASAN
    __asan_unpoison_memory_region(lo, size);  // frames of a previous user may be poisoned
#endif
    __builtin_memset(lo, stack_fill, size);  // high-water mark; outside the masked section
    put_canary(lo);

    irq_guard g;
    unsigned slot = 1;
    while (threads[slot].st != thread_state::stopped || &threads[slot] == current) {
        if (++slot > max_threads) return err_no_slot;
    }
    tcb* t = &threads[slot];
    // A slot never used since reset() starts at generation 0, so its first
    // pid is the slot number.
    const unsigned gen = t->next_gen;
    *t = tcb{};
    t->id = static_cast<pid>(gen << slot_bits | slot);
    t->next_gen = static_cast<std::uint16_t>((gen + 1) % generations);
    t->prio = t->base_prio = static_cast<std::uint16_t>(prio);
    t->fn = fn;
    t->arg = arg;
    t->name = nm;
    t->stack_lo = lo;
    t->stack_size = size;
    t->ctx = port::stack_init(lo, size, thread_entry, t);
    ++live;
    KAIROS_TRACE_CREATE(t);
    if ((flags & create_sleeping) != 0) {
        t->st = thread_state::sleeping;
    } else {
        make_ready(t);
        if ((flags & create_no_yield) == 0 && prio < current->prio) reschedule();
    }
    return t->id;
}

}  // namespace

void prio_queue_insert(tcb*& head, tcb* t) noexcept {
    tcb** p = &head;
    while (*p != nullptr && (*p)->prio <= t->prio) p = &(*p)->next_wait;
    t->next_wait = *p;
    *p = t;
}

void prio_queue_remove(tcb*& head, tcb* t) noexcept {
    for (tcb** p = &head; *p != nullptr; p = &(*p)->next_wait) {
        if (*p == t) {
            *p = t->next_wait;
            break;
        }
    }
    t->next_wait = nullptr;
}

}  // namespace impl

using namespace impl;

std::size_t stack_min() noexcept {
    const std::size_t n = port::min_stack_size() + canary_size + kernel_stack;
    return (n + port::stack_align - 1) / port::stack_align * port::stack_align;
}

pid thread_create(void* stack, std::size_t size, unsigned prio, void (*fn)(void*), void* arg,
                  const char* nm, unsigned flags) noexcept {
    if (prio >= prio_levels - 1) return err_priority;
    return create(stack, size, prio, fn, arg, nm, flags);
}

pid self() noexcept { return started ? current->id : no_pid; }

// yield() moves the running thread behind its equals and switches to the
// new head of its level when yield_decision() can decide; a decision it cannot make, and every
// yield() with the mask already taken by the caller, goes through the
// port's switch (request_switch()). How the decided switch happens is the
// port's (port.hpp, "direct yield"): a trap whose routine decides
// (KAIROS_PORT_YIELD_TRAP: kairos_sched_yield()), a direct switch in the
// calling thread (KAIROS_PORT_DIRECT_SWITCH: port::switch_to()), or, with
// neither, a switch request whenever another thread is next (a switch that
// resumes the same thread would save and restore its context for nothing).
#if KAIROS_PORT_DIRECT_SWITCH
namespace {
// yield_through_switch(s) ends a yield() that needs the port's switch. Out
// of line so yield()'s direct path keeps no registers across its calls.
__attribute__((noinline)) void yield_through_switch(port::irq_state s) noexcept {
    port::request_switch();
    port::irq_restore_kernel(s);
}
}  // namespace
#endif

void yield() noexcept {
    KAIROS_ASSERT(started && !port::in_isr());
#ifdef KAIROS_PORT_YIELD_TRAP
    if (port::yield_trap()) return;
#endif
    const port::irq_state s = port::irq_disable();
    tcb* const cur = current;
#if KAIROS_PORT_DIRECT_SWITCH
    tcb* const next = yield_decision(cur, s);
    if (next == nullptr) return yield_through_switch(s);
    // switch_to() returns unmasked (port.hpp): a tail call.
    if (next != cur) return port::switch_to(&cur->ctx, make_current(cur, next));
    port::irq_restore_kernel(0);
#else
    if (yield_decision<true>(cur, 0) != cur) port::request_switch();
    port::irq_restore_kernel(s);
#endif
}

void yield_higher() noexcept {
    irq_guard g;
    if (rq.best_prio() < current->prio) port::request_switch();
}

void sleep() noexcept {
    const port::irq_state s = port::irq_disable();
    assert_can_block(s);
    block_current(thread_state::sleeping);
    port::irq_restore_kernel(s);
}

// A receiver field in every tcb would cost every thread a word; a scan of
// the table costs only the rare paths that need it.
tcb* impl::receiver_of(const tcb* t) noexcept {
    for (tcb& r : threads) {
        for (const tcb* w = r.senders; w != nullptr; w = w->next_wait) {
            if (w == t) return &r;
        }
    }
    return nullptr;
}

std::uint64_t timeout_until(std::uint64_t deadline_us) noexcept {
    if (deadline_us == deadline_forever) return timeout_forever;
    const std::uint64_t now = port::now_us();
    return time_before(now, deadline_us) ? deadline_us - now : 0;  // below 2^63
}

int wakeup(pid p) noexcept {
    irq_guard g;
    tcb* t = lookup(p);
    if (t == nullptr) return err_bad_pid;
    if (t->st != thread_state::sleeping) return 0;
    timers.disarm(t->timer);
    make_runnable(t);
    return 1;
}

void impl::set_priority(tcb* t, unsigned p) noexcept {
    if (t->prio == p) return;
    switch (t->st) {
        case thread_state::pending:  // runnable (never stored as running)
            rq.remove(t, t->prio);
            t->prio = static_cast<std::uint16_t>(p);
            make_ready(t);  // at the end of its new level
            break;
        case thread_state::blocked_mutex: {
            mutex* m = t->waiting_for;
            const std::uint32_t w = m->word();
            tcb* head = first_waiter(w);
            prio_queue_remove(head, t);
            t->prio = static_cast<std::uint16_t>(p);
            prio_queue_insert(head, t);
            mutex_access::set_waiters(*m, w, head);
            inherit_raise(w, p);  // follows the chain of owners
            break;
        }
        case thread_state::blocked_send: {
            // Receivers serve senders in priority order, so t moves in the
            // queue it waits in.
            tcb* r = receiver_of(t);
            if (r != nullptr) prio_queue_remove(r->senders, t);
            t->prio = static_cast<std::uint16_t>(p);
            if (r != nullptr) prio_queue_insert(r->senders, t);
            break;
        }
        case thread_state::blocked_wait:
            wait_requeue(t, p);
            break;
        default:  // sleeping, reply, receive and flags waits: no queue
            t->prio = static_cast<std::uint16_t>(p);
            break;
    }
}

int change_priority(pid p, unsigned prio) noexcept {
    if (prio >= prio_levels - 1) return err_priority;
    irq_guard g;
    tcb* t = lookup(p);
    if (t == nullptr) return err_bad_pid;
    if (t == idle_tcb) return err_priority;  // the idle level is the idle thread's alone
    t->base_prio = static_cast<std::uint16_t>(prio);
    recompute_priority(t);
    if (rq.best_prio() < current->prio) reschedule();
    return 0;
}

void exit() noexcept {
    const port::irq_state s = port::irq_disable();
    assert_can_block(s);
    tcb* t = current;
    // Nobody else could ever unlock an inheritance mutex, and a new thread
    // in the slot must not find a plain one locked by its predecessor.
    if (t->n_held != 0) kairos_port_panic("thread exited holding a mutex", KAIROS_FILE, __LINE__);
    // Senders still waiting to hand t a message are told it exited.
    while (tcb* w = t->senders) {
        prio_queue_remove(t->senders, w);
        w->msg_slot = nullptr;
        w->wants_reply = false;
        w->peer_exited = true;
        make_runnable(w);
    }
    rq.remove(t, t->prio);
    slice_done(t);
    t->st = thread_state::stopped;
    t->id = no_pid;  // its pid is stale from here on
    --live;
    port::request_switch();
    port::irq_restore_kernel(s);
    kairos_port_panic("an exited thread was resumed", KAIROS_FILE, __LINE__);
}

thread_state state(pid p) noexcept {
    irq_guard g;
    const tcb* t = lookup(p);
    if (t == nullptr) return thread_state::stopped;
    // Runnable threads are all stored as pending (a switch then writes no
    // state); the current one is the running one.
    return t == current && t->st == thread_state::pending ? thread_state::running : t->st;
}

int priority(pid p) noexcept {
    irq_guard g;
    const tcb* t = lookup(p);
    return t == nullptr ? -1 : t->prio;
}

const char* name(pid p) noexcept {
    irq_guard g;
    const tcb* t = lookup(p);
    return t == nullptr ? nullptr : t->name;
}

// The scan reads stack bytes that live frames' redzones may have poisoned.
#if KAIROS_ASAN
__attribute__((no_sanitize("address")))
#endif
std::size_t stack_unused(pid p) noexcept {
    const tcb* t = lookup(p);
    if (t == nullptr) return 0;
    std::size_t n = canary_size;
    while (n < t->stack_size && t->stack_lo[n] == stack_fill) ++n;
    return n - canary_size;
}

unsigned live_threads() noexcept { return live; }

int run(const run_options& o) noexcept {
    KAIROS_ASSERT(!started && current == boot && !port::in_isr());
    options = o;
    boot->stack_lo = boot_canary;
    put_canary(boot_canary);
#if !KAIROS_PORT_IDLE_IN_SWITCH
    if (!idle_ctx_start()) return err_stack_size;
#endif
    if (o.idle_thread) {
        const pid id = create(o.idle_stack, o.idle_stack_size, prio_levels - 1, idle_main,
                              nullptr, "idle", create_no_yield);
        if (id < 0) return id;
        idle_tcb = lookup(id);
    }
    started = true;
    port::start_scheduler();  // returns when the scheduler picks the boot context
    started = false;
    if (overflowed != nullptr) report_overflow(overflowed);
    if (idle_tcb != nullptr) {
        irq_guard g;
        tcb* t = idle_tcb;
        if (t->st == thread_state::pending) rq.remove(t, t->prio);
        t->st = thread_state::stopped;
        t->id = no_pid;
        --live;
        idle_tcb = nullptr;
    }
    return static_cast<int>(live);
}

void reset() noexcept {
    KAIROS_ASSERT(!started);
    irq_guard g;
    for (auto& t : threads) {
        timers.disarm(t.timer);
        t = tcb{};
    }
    rq = {};
    live = 0;
    stop_requested = false;
    slow_pick = 0;
    overflowed = nullptr;
    idle_tcb = nullptr;
    current = boot;
}

}  // namespace kairos::kernel

using namespace kairos::kernel::impl;

namespace {

// pick_slow() is the decision when timers are pending, the idle thread asked
// to stop, or nothing is runnable: then it waits in port::idle(), or, when
// the port cannot wait inside its switch, returns the kernel's idle context.
tcb* pick_slow() noexcept {
    if (overflowed != nullptr) return boot;  // slow_pick stays set: every decision gets here
    for (;;) {
        if (!timers.empty()) expire(kairos::port::now_us());
        slow_pick = timers.empty() ? 0 : slow_pick_on;
        if (stop_requested) {
            stop_requested = false;
            return boot;
        }
        if (kairos::detail::clist_node* n = rq.best()) return static_cast<tcb*>(n);
        if (options.return_when_idle && timers.empty()) {
            return boot;  // nothing can run and nothing will wake: run() returns
        }
#if KAIROS_PORT_IDLE_IN_SWITCH
        kairos::port::idle(idle_deadline());
#else
        return &idle_ctx;
#endif
    }
}

// switch_slow() ends kairos_sched_switch() through pick_slow(). Out of line
// so the common path stays a leaf (no frame, no saved registers).
__attribute__((noinline)) void* switch_slow() noexcept {
    tcb* const next = pick_slow();
    return make_current(current, next);
}

// switch_overflow(t) ends kairos_sched_switch() for t, the outgoing
// thread, whose canary is broken: nothing more may run on its stack (the
// report needs far more than a canary's worth), so this and every later
// decision take the slow path, where pick_slow() returns the boot context
// and run() reports. Cold, out of line and a tail call: the check at every
// switch stays a compare and a branch, and the switch stays a leaf.
__attribute__((cold, noinline)) void* switch_overflow(const tcb* t) noexcept {
    overflowed = t;
    slow_pick = slow_pick_on;
    return switch_slow();
}

}  // namespace

// kairos_sched_stack_overflow() (port.hpp): the hardware stopped `current`
// at its stack limit, so it is the thread to report; the port's fault
// handler calls this on its own stack.
extern "C" void kairos_sched_stack_overflow() noexcept { report_overflow(current); }

// kairos_sched_switch() is the whole decision in the common case: one
// canary compare, one bitmap scan, no thread state written (runnable
// threads stay pending; state() reports the current one as running).
extern "C" void* kairos_sched_switch(void* ctx) noexcept {
    tcb* cur = current;
    cur->ctx = ctx;
    if (!stack_intact(cur)) return switch_overflow(cur);  // the boot context's slot points at boot_canary
    tcb* next = static_cast<tcb*>(rq.best_unless(slow_pick));
    if (next == nullptr) return switch_slow();
    return make_current(cur, next);
}

#ifdef KAIROS_PORT_YIELD_TRAP
// kairos_sched_yield() (port.hpp) is yield_decision() in the port's trap
// routine; a decision it cannot make is requested as a full switch.
extern "C" void* kairos_sched_yield(void* ctx) noexcept {
    tcb* const cur = current;
    tcb* const next = yield_decision(cur, 0);
    if (next == nullptr) {
        kairos::port::request_switch();
        return nullptr;
    }
    if (next == cur) return nullptr;
    cur->ctx = ctx;
    return make_current(cur, next);
}
#endif

// SPDX-License-Identifier: MIT
// Trace events, per-thread statistics and the ps-style listing
// (include/kairos/kernel/trace.hpp, docs/trace.md). Everything but
// print_threads() exists only with KAIROS_TRACE. What interrupts and the
// switch reach is KAIROS_ISR_FN (IRAM on ESP chips).
#include "kernel_impl.hpp"

#include <kairos/detail/decimal.hpp>
#include <kairos/kernel/trace.hpp>
#include <kairos/spsc_ring.hpp>

namespace kairos::kernel {
namespace {

using sink_fn = void (*)(const char*);

char* put_text(char* p, const char* s, std::size_t max) noexcept {
    for (std::size_t i = 0; s != nullptr && s[i] != '\0' && i < max; ++i) *p++ = s[i];
    return p;
}

char* put_u32(char* p, std::uint32_t v) noexcept { return detail::put_decimal(p, v); }

const char* state_name(thread_state s) noexcept {
    switch (s) {
        case thread_state::stopped: return "stopped";
        case thread_state::sleeping: return "sleeping";
        case thread_state::blocked_mutex: return "mutex";
        case thread_state::blocked_receive: return "receive";
        case thread_state::blocked_send: return "send";
        case thread_state::blocked_reply: return "reply";
        case thread_state::blocked_flags: return "flags";
        case thread_state::blocked_wait: return "wait";
        case thread_state::pending: return "ready";
        case thread_state::running: return "running";
    }
    return "?";
}

#if KAIROS_TRACE
using trace::event;
using trace::record;

static_assert((KAIROS_TRACE_RING & (KAIROS_TRACE_RING - 1)) == 0 && KAIROS_TRACE_RING >= 2,
              "KAIROS_TRACE_RING must be a power of two, at least 2");

spsc_ring<record, KAIROS_TRACE_RING> ring;

// Statistics per table slot; the last entry is the kernel's idle context
// (outside the table). Touched only with interrupts masked.
trace::thread_stats slot_stats[max_threads + 2];
std::uint64_t last_switch_us = 0;  // when the running thread was switched in
std::uint64_t stats_origin_us = 0;
std::uint32_t n_switches = 0;

constexpr std::uint16_t idle_ctx_id = 0xFFFF;

KAIROS_ISR_FN __attribute__((always_inline)) inline unsigned slot_of(const impl::tcb* t) noexcept {
    const auto i = static_cast<std::size_t>(t - impl::threads);
    return t >= impl::threads && i <= max_threads ? static_cast<unsigned>(i) : max_threads + 1;
}

// id_of(t): t's pid; for a thread that has just exited (its switch away
// comes after exit() cleared the pid) the pid it had, the generation
// before the slot's next one.
KAIROS_ISR_FN __attribute__((always_inline)) inline std::uint16_t id_of(const impl::tcb* t) noexcept {
    const unsigned slot = slot_of(t);
    if (slot == max_threads + 1) return idle_ctx_id;
    if (t->id != no_pid || slot == 0) return static_cast<std::uint16_t>(t->id);
    const unsigned gen = (t->next_gen + impl::generations - 1) % impl::generations;
    return static_cast<std::uint16_t>(gen << impl::slot_bits | slot);
}

// push(ts, e, thread, object, arg) queues one record. Interrupts masked.
KAIROS_ISR_FN __attribute__((always_inline)) inline void push(std::uint64_t ts, event e, std::uint16_t thread, std::uint32_t object,
          std::uint32_t arg) noexcept {
    // A full ring refuses the record and counts it (dropped()).
    static_cast<void>(ring.try_push(record{static_cast<std::uint32_t>(ts),
                                           static_cast<std::uint16_t>(ts >> 32), thread, object,
                                           static_cast<std::uint16_t>(arg), e, 0}));
}
#endif

}  // namespace

#if KAIROS_TRACE
namespace impl {

KAIROS_ISR_FN void trace_switch(const tcb* from, const tcb* to) noexcept {
    if (from == to) return;
    const std::uint64_t now = port::now_us();
    slot_stats[slot_of(from)].cpu_us += now - last_switch_us;
    last_switch_us = now;
    ++slot_stats[slot_of(to)].switches;
    ++n_switches;
    push(now, event::switch_in, id_of(to), id_of(from), 0);
}

void trace_blocked(const tcb* t) noexcept {
    std::uintptr_t obj = 0;
    switch (t->st) {
        case thread_state::blocked_mutex: obj = reinterpret_cast<std::uintptr_t>(t->waiting_for); break;
        case thread_state::blocked_send:
        case thread_state::blocked_receive: obj = reinterpret_cast<std::uintptr_t>(t->msg_slot); break;
        case thread_state::blocked_reply: obj = reinterpret_cast<std::uintptr_t>(t->reply_slot); break;
        case thread_state::blocked_flags: obj = t->wait_mask; break;
        case thread_state::blocked_wait: obj = reinterpret_cast<std::uintptr_t>(t->wait_list); break;  // the object's waiter list, inside the object
        default: break;
    }
    trace::emit(event::blocked, static_cast<std::uint32_t>(obj), static_cast<std::uint32_t>(t->st));
}

void trace_create(const tcb* t) noexcept {
    const port::irq_state s = port::irq_disable();
    slot_stats[slot_of(t)] = {};
    push(port::now_us(), event::thread_create, id_of(current), static_cast<std::uint16_t>(t->id),
         t->prio);
    port::irq_restore(s);
}

}  // namespace impl

namespace trace {

KAIROS_ISR_FN void emit(event e, std::uint32_t object, std::uint32_t arg) noexcept {
    const port::irq_state s = port::irq_disable();
    push(port::now_us(), e, id_of(impl::current), object, arg);
    port::irq_restore(s);
}

namespace {
const char* event_name(event e) noexcept {
    switch (e) {
        case event::switch_in: return "switch";
        case event::ready: return "ready";
        case event::blocked: return "blocked";
        case event::isr_enter: return "isr_enter";
        case event::isr_exit: return "isr_exit";
        case event::msg_send: return "msg_send";
        case event::msg_receive: return "msg_receive";
        case event::flags_set: return "flags_set";
        case event::mutex_lock: return "mutex_lock";
        case event::mutex_unlock: return "mutex_unlock";
        case event::deferred_start: return "deferred_start";
        case event::deferred_end: return "deferred_end";
        case event::thread_create: return "create";
    }
    return "?";
}
}  // namespace

std::size_t drain(sink_fn sink) noexcept {
    std::size_t n = 0;
    record r{};
    while (ring.try_pop(r)) {
        // "KT e <ts_us> <event> <thread> <object> <arg>"
        char buf[96];
        char* p = put_text(buf, "KT e ", 8);
        p = detail::put_decimal(p, r.ts_us());
        *p++ = ' ';
        p = put_text(p, event_name(r.type), 16);
        *p++ = ' ';
        p = put_u32(p, r.thread);
        *p++ = ' ';
        p = put_u32(p, r.object);
        *p++ = ' ';
        p = put_u32(p, r.arg);
        *p++ = '\n';
        *p = '\0';
        sink(buf);
        ++n;
    }
    return n;
}

void dump_header(sink_fn sink) noexcept {
    char buf[96];
    char* p = put_text(buf, "KT clock us ", 16);
    p = put_text(p, port::name(), 24);
    *p++ = '\n';
    *p = '\0';
    sink(buf);
    for (unsigned i = 1; i <= max_threads; ++i) {
        const impl::tcb& t = impl::threads[i];
        if (t.id == no_pid) continue;
        // "KT thread <pid> <prio> <name>"
        p = put_text(buf, "KT thread ", 16);
        p = put_u32(p, static_cast<std::uint32_t>(t.id));
        *p++ = ' ';
        p = put_u32(p, t.base_prio);
        *p++ = ' ';
        p = put_text(p, t.name != nullptr ? t.name : "?", 40);
        *p++ = '\n';
        *p = '\0';
        sink(buf);
    }
}

void dump_footer(sink_fn sink) noexcept {
    char buf[96];
    char* p = put_text(buf, "KT dropped ", 16);
    p = put_u32(p, dropped());
    p = put_text(p, "\nKT switches ", 16);
    p = put_u32(p, switches());
    *p++ = '\n';
    *p = '\0';
    sink(buf);
}

std::uint32_t dropped() noexcept { return ring.failed_pushes(); }

std::uint32_t switches() noexcept {
    impl::irq_guard g;
    return n_switches;
}

thread_stats stats(pid p) noexcept {
    impl::irq_guard g;
    const impl::tcb* t = impl::lookup(p);
    if (t == nullptr) return {};
    thread_stats r = slot_stats[slot_of(t)];
    if (t == impl::current) r.cpu_us += port::now_us() - last_switch_us;  // its running share
    return r;
}

void reset_stats() noexcept {
    impl::irq_guard g;
    for (auto& s : slot_stats) s = {};
    n_switches = 0;
    stats_origin_us = last_switch_us = port::now_us();
}

}  // namespace trace
#endif  // KAIROS_TRACE

void trace::print_threads(sink_fn sink) noexcept {
    char buf[128];
    sink("  PID NAME             STATE     PRIO  STACK USED/SIZE  SWITCHES   CPU%\n");
#if KAIROS_TRACE
    const std::uint64_t now = port::now_us();
    std::uint64_t span = now - stats_origin_us;
    if (span == 0) span = 1;
#endif
    for (unsigned i = 1; i <= max_threads; ++i) {
        const pid id = impl::threads[i].id;
        if (id == no_pid) continue;
        const char* nm = name(id);
        const std::size_t size = impl::threads[i].stack_size;
        const std::size_t used = size - stack_unused(id);
        char* p = buf;
        auto column = [&](char* start, std::size_t width) {
            while (static_cast<std::size_t>(p - start) < width) *p++ = ' ';
        };
        char* c = p;
        p = put_u32(p, static_cast<std::uint32_t>(id));
        // right-align the pid in 5 columns
        const std::size_t w = static_cast<std::size_t>(p - c);
        for (std::size_t k = 0; k < w; ++k) c[4 - k] = c[w - 1 - k];
        for (std::size_t k = 0; k + w < 5; ++k) c[k] = ' ';
        p = c + 5;
        *p++ = ' ';
        c = p;
        p = put_text(p, nm != nullptr ? nm : "?", 16);
        column(c, 17);
        c = p;
        p = put_text(p, state_name(state(id)), 9);
        column(c, 10);
        c = p;
        p = put_u32(p, static_cast<std::uint32_t>(priority(id)));
        column(c, 6);
        c = p;
        p = put_u32(p, static_cast<std::uint32_t>(used));
        *p++ = '/';
        p = put_u32(p, static_cast<std::uint32_t>(size));
        column(c, 17);
        c = p;
#if KAIROS_TRACE
        const trace::thread_stats st = trace::stats(id);
        p = put_u32(p, st.switches);
        column(c, 11);
        // CPU % with one decimal
        const auto permille = static_cast<std::uint32_t>(st.cpu_us * 1000u / span);
        p = put_u32(p, permille / 10);
        *p++ = '.';
        p = put_u32(p, permille % 10);
#else
        *p++ = '-';
        column(c, 11);
        *p++ = '-';
#endif
        *p++ = '\n';
        *p = '\0';
        sink(buf);
    }
}

}  // namespace kairos::kernel

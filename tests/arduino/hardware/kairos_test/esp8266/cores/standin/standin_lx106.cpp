// SPDX-License-Identifier: MIT
// The ESP8266 stand-in core (tests/arduino): NOT the ESP8266 Arduino core.
// A model of the parts of it kairos' framework port and the examples use,
// on QEMU's `-M sim -cpu lx106` (CCOUNT at 40 MHz):
//   startup      .bss, static constructors, main(): setup() then loop()
//                forever (boards/qemu-lx106-sim reset stub and vectors)
//   time         CCOUNT extended to 64 bits; micros64(), micros(), millis()
//   tick         CCOMPARE0 every 1 ms: SDK timers (ets_timer_*) and timer1
//                fire from it, in interrupt context (the SDK runs its
//                timers in a task; interrupt context is the stricter one)
//   esp_schedule wakes loop(): between two loop() calls the stand-in sleeps
//                (waiti) until esp_schedule() or the next tick, so QEMU's
//                -icount skips idle time (the real core reruns loop() at once)
//   console      ets_printf("%s", ...) and Serial, over simcall; a
//                "kairos: PASS"/"kairos: FAIL" line ends the run (0/1)
//   panic        __panic_func(): exit 97; an exception: exit 98; more than
//                120 s of virtual time: exit 99
#include <Arduino.h>

#include "../../../../../../../boards/qemu-lx106-sim/simcall.hpp"

#include <stdarg.h>
#include <stdint.h>

namespace {

constexpr uint32_t ccount_hz = 40000000;  // QEMU sim model (cmake/qemu-test.cmake)
constexpr uint32_t tick_cycles = ccount_hz / 1000;
constexpr uint32_t timer0_bit = 1u << 6;   // CCOMPARE0
constexpr uint64_t virtual_limit_ms = 120000;

uint32_t rsr_ccount() {
    uint32_t v;
    asm volatile("rsr %0, ccount" : "=a"(v));
    return v;
}

volatile uint32_t ccount_high = 0;
volatile uint32_t ccount_last = 0;
volatile bool woken = false;
volatile uint64_t ms_ticks = 0;

// cycles() extends CCOUNT; masked, so the tick and a caller agree.
uint64_t cycles() {
    const uint32_t ps = xt_rsil(15);
    const uint32_t c = rsr_ccount();
    if (c < ccount_last) ccount_high = ccount_high + 1;
    ccount_last = c;
    const uint64_t r = (uint64_t{ccount_high} << 32) | c;
    xt_wsr_ps(ps);
    return r;
}

// The SDK's ETSTimer, as ets_sys.h lays it out.
struct ets_timer {
    ets_timer* timer_next;
    uint32_t timer_expire;  // stand-in: due time, ms ticks (low 32 bits)
    uint32_t timer_period;  // stand-in: period in ms ticks, 0: one-shot
    void (*timer_func)(void*);
    void* timer_arg;
};
ets_timer* armed = nullptr;  // changed with interrupts masked

timercallback timer1_fn = nullptr;
uint32_t timer1_period_ms = 0;  // 0: stopped
uint32_t timer1_due = 0;
bool timer1_loop = false;
uint8_t timer1_div = 0;

bool due(uint32_t at, uint32_t now) { return static_cast<int32_t>(now - at) >= 0; }

void run_timers(uint32_t now) {
    for (ets_timer** pp = &armed; *pp != nullptr;) {
        ets_timer* t = *pp;
        if (!due(t->timer_expire, now)) {
            pp = &t->timer_next;
            continue;
        }
        if (t->timer_period != 0) {
            t->timer_expire = now + t->timer_period;
            pp = &t->timer_next;
        } else {
            *pp = t->timer_next;  // one-shot: disarmed before it runs
            t->timer_next = nullptr;
        }
        t->timer_func(t->timer_arg);
    }
    if (timer1_period_ms != 0 && timer1_fn != nullptr && due(timer1_due, now)) {
        timer1_due = now + timer1_period_ms;
        if (!timer1_loop) timer1_period_ms = 0;
        timer1_fn();
    }
}

void tick() {
    uint32_t next;
    asm volatile("rsr %0, ccompare0" : "=a"(next));
    next += tick_cycles;
    if (static_cast<int32_t>(next - rsr_ccount()) < 16) next = rsr_ccount() + tick_cycles;
    asm volatile("wsr %0, ccompare0\n\tesync" ::"a"(next) : "memory");
    (void)cycles();  // keeps the CCOUNT wraps counted
    ms_ticks = ms_ticks + 1;
    if (ms_ticks > virtual_limit_ms) {
        kairos::qemu_lx106::write("stand-in core: virtual time limit\n");
        kairos::qemu_lx106::exit(99);
    }
    run_timers(static_cast<uint32_t>(ms_ticks));
}

}  // namespace

StandinSerial Serial;

extern "C" {

void standin_write(const char* s) { kairos::qemu_lx106::write(s); }
void standin_exit(int code) { kairos::qemu_lx106::exit(code); }

// ---- the core's API ----------------------------------------------------------

uint64_t micros64(void) { return cycles() / (ccount_hz / 1000000u); }
unsigned long micros(void) { return static_cast<unsigned long>(micros64()); }
unsigned long millis(void) { return static_cast<unsigned long>(micros64() / 1000u); }
void yield(void) {}

void delay(unsigned long ms) {
    const uint64_t end = micros64() + uint64_t{ms} * 1000u;
    while (micros64() < end) {
        const uint32_t ps = xt_rsil(15);
        asm volatile("waiti 0" ::: "memory");  // the tick ends it
        xt_wsr_ps(ps);
    }
}

void esp_schedule(void) { woken = true; }

// ets_printf: the stand-in knows "%s" and plain text only.
int ets_printf(const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    if (format[0] == '%' && format[1] == 's' && format[2] == '\0') {
        kairos::qemu_lx106::write(va_arg(ap, const char*));
    } else {
        kairos::qemu_lx106::write(format);
    }
    va_end(ap);
    return 0;
}

void __panic_func(const char* file, int, const char* func) {
    kairos::qemu_lx106::write("stand-in core: panic in ");
    kairos::qemu_lx106::write(func);
    kairos::qemu_lx106::write(" at ");
    kairos::qemu_lx106::write(file);
    kairos::qemu_lx106::write("\n");
    kairos::qemu_lx106::exit(97);
}

void ets_timer_setfn(ets_timer* t, void (*fn)(void*), void* arg) {
    t->timer_func = fn;
    t->timer_arg = arg;
}

void ets_timer_disarm(ets_timer* t) {
    const uint32_t ps = xt_rsil(15);
    for (ets_timer** pp = &armed; *pp != nullptr; pp = &(*pp)->timer_next) {
        if (*pp == t) {
            *pp = t->timer_next;
            break;
        }
    }
    t->timer_next = nullptr;
    xt_wsr_ps(ps);
}

// ets_timer_arm_new(t, time, repeat, ms): time in ms (ms true) or µs,
// rounded up to whole 1 ms ticks here.
void ets_timer_arm_new(ets_timer* t, uint32_t time, bool repeat, bool ms) {
    ets_timer_disarm(t);
    uint32_t period = ms ? time : (time + 999u) / 1000u;
    if (period == 0) period = 1;
    const uint32_t ps = xt_rsil(15);
    t->timer_expire = static_cast<uint32_t>(ms_ticks) + period;
    t->timer_period = repeat ? period : 0;
    t->timer_next = armed;
    armed = t;
    xt_wsr_ps(ps);
}

void timer1_isr_init(void) {}
void timer1_attachInterrupt(timercallback f) { timer1_fn = f; }
void timer1_detachInterrupt(void) {
    timer1_fn = nullptr;
    timer1_period_ms = 0;
}
void timer1_enable(uint8_t divider, uint8_t, uint8_t reload) {
    timer1_div = divider;
    timer1_loop = reload == TIM_LOOP;
}
void timer1_disable(void) { timer1_period_ms = 0; }
// timer1_write(ticks): ticks of 80 MHz / divider (1, 16, 256).
void timer1_write(uint32_t ticks) {
    const uint32_t per_ms = timer1_div == TIM_DIV1 ? 80000u : timer1_div == TIM_DIV16 ? 5000u : 312u;
    uint32_t period = (ticks + per_ms - 1u) / per_ms;
    if (period == 0) period = 1;
    const uint32_t ps = xt_rsil(15);
    timer1_period_ms = period;
    timer1_due = static_cast<uint32_t>(ms_ticks) + period;
    xt_wsr_ps(ps);
}

// ---- what the lx106 vector path (port/xtensa_lx106/switch.S) calls ----------

void (*volatile kairos_lx106_soft_hook)() = nullptr;

uint32_t kairos_lx106_interrupt(uint32_t pending) {
    if ((pending & timer0_bit) != 0) tick();
    return 0;  // no kernel: never a switch
}

void kairos_lx106_exception(uint32_t cause, void*) {
    kairos::qemu_lx106::write(cause == 0xFFFFFFFFu ? "stand-in core: unexpected vector\n"
                                                   : "stand-in core: exception\n");
    kairos::qemu_lx106::exit(98);
}

// ---- startup -------------------------------------------------------------------

extern uint32_t _sbss[], _ebss[];
extern void (*__init_array_start[])();
extern void (*__init_array_end[])();

[[noreturn]] void kairos_lx106_start() {
    for (uint32_t* p = _sbss; p < _ebss;) *p++ = 0;
    for (void (**c)() = __init_array_start; c < __init_array_end; ++c) (*c)();
    const uint32_t ps = xt_rsil(15);
    asm volatile("wsr %0, ccompare0\n\tesync" ::"a"(rsr_ccount() + tick_cycles) : "memory");
    uint32_t en;
    asm volatile("rsr %0, intenable" : "=a"(en));
    asm volatile("wsr %0, intenable\n\trsync" ::"a"(en | timer0_bit) : "memory");
    xt_wsr_ps(ps);
    setup();
    for (;;) {
        loop();
        const uint32_t s = xt_rsil(15);
        if (!woken) asm volatile("waiti 0" ::: "memory");  // until a tick or interrupt
        woken = false;
        xt_wsr_ps(s);
    }
}

}  // extern "C"

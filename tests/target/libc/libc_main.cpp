// SPDX-License-Identifier: MIT
// The application side of the vendor-shaped firmware linked against a real
// C library (newlib-nano or picolibc, LIBC_NAME) instead of
// tests/target/runtime.cpp. A writer thread formats each sequence number
// with snprintf into a text record and passes it through an spsc_ring; a
// reader thread parses it back (strlen, strtoul), checks the order and hands
// the value to a deferred scheduler that it also runs. The panic path and an
// assertion (KAIROS_ASSERTS=1, as in a Debug firmware) are linked, not
// taken: kairos_port_panic and kairos_assert_failed resolve next to the C
// library without a second memset, memcpy or exit. Passes (exit 0, final line "<LIBC_NAME>: ok") when every record
// arrived once, in order, and every deferred function ran.
#include <kairos/config.hpp>
#include <kairos/deferred.hpp>
#include <kairos/kernel/thread.hpp>
#include <kairos/port.hpp>
#include <kairos/spsc_ring.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" volatile std::uint32_t vendor_systicks;

namespace {

namespace k = kairos::kernel;

struct record {
    char text[12];  // "#<decimal>", NUL-terminated
};

constexpr unsigned long records = 1000;
kairos::spsc_ring<record, 8> ring;
kairos::deferred<8, 2> sched;  // the port's clock (now_us)
unsigned long parsed = 0;      // last sequence number the reader parsed
unsigned long ran = 0;         // last one a deferred function saw
unsigned long sum = 0;         // of the values the deferred functions saw
bool in_order = true;
alignas(8) unsigned char writer_stack[2048];
alignas(8) unsigned char reader_stack[2048];

void writer(void*) {
    for (unsigned long n = 1; n <= records; ++n) {
        record r;
        std::snprintf(r.text, sizeof r.text, "#%lu", n);
        while (!ring.try_push(r)) k::yield();
        if (n % 128 == 0) k::sleep_us(1500);  // at least one SysTick period
    }
}

// reader() parses each record and defers its accounting; a full deferred
// queue is drained before the value is scheduled, so none is refused.
void reader(void*) {
    while (parsed < records) {
        record r;
        if (!ring.try_pop(r)) {
            sched.run();
            k::yield();
            continue;
        }
        char* end = nullptr;
        const unsigned long v = r.text[0] == '#' ? std::strtoul(r.text + 1, &end, 10) : 0;
        if (v != parsed + 1 || end != r.text + std::strlen(r.text)) in_order = false;
        parsed = v;
        while (!sched.schedule([v] {
            if (v != ran + 1) in_order = false;
            ran = v;
            sum += v;
        })) {
            sched.run();
        }
    }
    sched.run();
}

}  // namespace

int main() {
    k::thread_create(writer_stack, sizeof writer_stack, 1, writer, nullptr, "writer");
    k::thread_create(reader_stack, sizeof reader_stack, 1, reader, nullptr, "reader");
    k::run_options o;
    o.return_when_idle = true;
    k::run(o);
    KAIROS_ASSERT(parsed <= records);  // links the assertion path next to the C library
    if (vendor_systicks == 0) kairos_port_panic("no SysTick", __FILE__, __LINE__);

    char line[96];
    const int n =
        std::snprintf(line, sizeof line, "%s: parsed=%lu ran=%lu sum=%lu\n", LIBC_NAME, parsed, ran, sum);
    kairos::port::console_write(line);
    char copy[sizeof line];
    std::memcpy(copy, line, sizeof line);
    const bool ok = parsed == records && ran == records && in_order &&
                    sum == records * (records + 1) / 2 && n > 0 &&
                    std::strlen(copy) == static_cast<std::size_t>(n);
    std::snprintf(line, sizeof line, "%s: %s\n", LIBC_NAME, ok ? "ok" : "FAILED");
    kairos::port::console_write(line);
    return ok ? 0 : 1;
}

// SPDX-License-Identifier: MIT
// The kernel's trace records, statistics and listing (docs/trace.md). Runs
// with the hooks in the kairos_trace variant (tests/port/ports.cmake);
// builds without KAIROS_TRACE check only the listing.
#include <gtest/gtest.h>

#include <kairos/kernel/mutex.hpp>
#include <kairos/kernel/thread.hpp>
#include <kairos/kernel/trace.hpp>
#include <kairos/port.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace {

namespace k = kairos::kernel;

std::vector<std::string> lines;
void collect(const char* s) { lines.emplace_back(s); }

alignas(64) unsigned char stack_a[65536];
k::pid pid_a = k::no_pid;

class kernel_trace : public ::testing::Test {
protected:
    void SetUp() override {
        k::reset();
        lines.clear();
#if KAIROS_TRACE
        k::trace::drain([](const char*) {});  // what earlier tests left
        k::trace::reset_stats();
#endif
    }
    void TearDown() override { k::reset(); }
};

void list_threads(void*) { k::trace::print_threads(collect); }

TEST_F(kernel_trace, listing_names_every_live_thread_with_its_stack) {
    pid_a = k::thread_create(stack_a, sizeof stack_a, 5, list_threads, nullptr, "lister");
    ASSERT_GT(pid_a, 0);
    k::run_options o;
    o.return_when_idle = true;
    EXPECT_EQ(k::run(o), 0);
    ASSERT_EQ(lines.size(), 2u);  // the header and the one thread
    EXPECT_NE(lines[0].find("STACK USED/SIZE"), std::string::npos);
    EXPECT_NE(lines[1].find("lister"), std::string::npos);
    EXPECT_NE(lines[1].find("running"), std::string::npos);
    EXPECT_NE(lines[1].find("/" + std::to_string(sizeof stack_a)), std::string::npos) << lines[1];
}

#if KAIROS_TRACE
alignas(64) unsigned char stack_b[65536];
k::mutex m{k::mutex::protocol::inherit};
k::pid pid_b = k::no_pid;

// owner (lower) takes m and wakes waiter (higher), which blocks on m and
// is handed it at unlock.
void owner(void*) {
    m.lock();
    k::wakeup(pid_b);
    m.unlock();
}
void waiter(void*) {
    k::sleep();
    m.lock();
    m.unlock();
}

// fields(line) splits "KT e <ts> <event> <thread> <object> <arg>".
std::vector<std::string> fields(const std::string& l) {
    std::vector<std::string> f;
    std::size_t i = 0;
    while (i < l.size()) {
        const std::size_t j = l.find_first_of(" \n", i);
        if (j != i) f.push_back(l.substr(i, j == std::string::npos ? std::string::npos : j - i));
        if (j == std::string::npos) break;
        i = j + 1;
    }
    return f;
}

TEST_F(kernel_trace, mutex_handoff_is_recorded_with_its_object) {
    pid_b = k::thread_create(stack_b, sizeof stack_b, 3, waiter, nullptr, "waiter");
    pid_a = k::thread_create(stack_a, sizeof stack_a, 4, owner, nullptr, "owner");
    ASSERT_GT(pid_a, 0);
    ASSERT_GT(pid_b, 0);
    k::run_options o;
    o.return_when_idle = true;
    EXPECT_EQ(k::run(o), 0);
    k::trace::drain(collect);
    const std::string mutex_addr =
        std::to_string(static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(&m)));
    bool blocked_on_m = false, handed_to_b = false;
    unsigned switches = 0;
    std::string last_in;
    for (const std::string& l : lines) {
        const auto f = fields(l);
        ASSERT_EQ(f.size(), 7u) << l;
        if (f[3] == "switch") {
            if (!last_in.empty()) {
                EXPECT_EQ(f[5], last_in) << "the switch chain breaks at " << l;
            }
            last_in = f[4];
            ++switches;
        }
        if (f[3] == "blocked" && f[4] == std::to_string(pid_b) && f[5] == mutex_addr &&
            f[6] == std::to_string(static_cast<unsigned>(k::thread_state::blocked_mutex))) {
            blocked_on_m = true;
        }
        // The hand-off: recorded by the unlocking owner, naming the new owner.
        if (f[3] == "mutex_lock" && f[4] == std::to_string(pid_a) && f[5] == mutex_addr &&
            f[6] == std::to_string(pid_b)) {
            handed_to_b = true;
        }
    }
    EXPECT_TRUE(blocked_on_m);
    EXPECT_TRUE(handed_to_b);
    EXPECT_EQ(switches, k::trace::switches());
    EXPECT_EQ(k::trace::dropped(), 0u);
}

void yielder(void*) {
    for (unsigned i = 0; i < KAIROS_TRACE_RING; ++i) k::yield();
}

TEST_F(kernel_trace, a_full_ring_drops_and_counts_while_statistics_go_on) {
    pid_a = k::thread_create(stack_a, sizeof stack_a, 5, yielder, nullptr, "y1");
    pid_b = k::thread_create(stack_b, sizeof stack_b, 5, yielder, nullptr, "y2");
    const std::uint32_t dropped_before = k::trace::dropped();
    k::run_options o;
    o.return_when_idle = true;
    EXPECT_EQ(k::run(o), 0);
    const std::uint32_t dropped = k::trace::dropped() - dropped_before;
    const std::size_t kept = k::trace::drain(collect);
    EXPECT_EQ(kept, static_cast<std::size_t>(KAIROS_TRACE_RING));  // never drained: full
    EXPECT_GT(dropped, 0u);
    // Two equal threads yielding to each other: a switch per yield, all
    // counted whether recorded or not.
    EXPECT_GE(k::trace::switches(), 2u * KAIROS_TRACE_RING);
}

void busy(void*) {
    const std::uint64_t t0 = kairos::port::now_us();
    while (kairos::port::now_us() - t0 < 2000) {
    }
    const k::trace::thread_stats s = k::trace::stats(k::self());
    EXPECT_GE(s.cpu_us, 2000u);  // its own running share counts
    EXPECT_EQ(s.switches, 1u);
}

TEST_F(kernel_trace, cpu_time_counts_the_running_share) {
    pid_a = k::thread_create(stack_a, sizeof stack_a, 5, busy, nullptr, "busy");
    k::run_options o;
    o.return_when_idle = true;
    EXPECT_EQ(k::run(o), 0);
}
#endif

}  // namespace

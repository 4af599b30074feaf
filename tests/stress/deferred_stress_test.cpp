// SPDX-License-Identifier: MIT
// Stress: kairos::deferred fed at once by two producer threads and by two
// signal handlers (kairos::ticker), one of which interrupts a producer
// thread in the middle of its own pushes into the same queue, while the main
// thread consumes with run() and is itself interrupted by the other handler.
// Every item carries (producer, sequence): the consumer checks no loss, no
// duplication and FIFO order per producer. A full queue is retried, never
// dropped: producers keep their sequence number until the push succeeds.
#include <gtest/gtest.h>

#include <kairos/config.hpp>
#include <kairos/deferred.hpp>
#include <kairos/ticker.hpp>

#include <atomic>
#include <cstdint>
#include <thread>

namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || !defined(NDEBUG)
constexpr std::uint32_t thread_items = 50000;  // Debug and sanitizers: ~seconds
#else
constexpr std::uint32_t thread_items = 300000;  // optimized (aarch64 under qemu: ~10 s)
#endif

constexpr int producers = 4;  // 0, 1: threads; 2, 3: signal handlers
kairos::deferred<64> queue;

// Consumer-side bookkeeping (the main thread only).
std::uint32_t expected[producers];
std::uint32_t out_of_order = 0;

void consume(int id, std::uint32_t seq) {
    if (seq != expected[id]) ++out_of_order;
    expected[id] = seq + 1;
}

// Signal producers: pushed counts, written by the handler on its thread.
std::atomic<std::uint32_t> signal_pushed[producers];
std::atomic<bool> signals_stop{false};

template <int Id>
void signal_producer() {
    // relaxed: the only writer is this handler; readers join/detach first.
    if (signals_stop.load(std::memory_order_relaxed)) return;
    std::uint32_t seq = signal_pushed[Id].load(std::memory_order_relaxed);
    for (int i = 0; i < 8; ++i) {
        if (!queue.schedule([seq] { consume(Id, seq); })) break;  // full: retry next tick
        ++seq;
    }
    signal_pushed[Id].store(seq, std::memory_order_relaxed);  // relaxed: see above
}

void thread_producer(int id, bool with_ticker) {
    kairos::ticker t;  // armed here: its signal interrupts this thread's pushes
    if (with_ticker) {
        ASSERT_TRUE(t.attach_us(150, &signal_producer<3>));
    }
    for (std::uint32_t seq = 0; seq < thread_items;) {
        if (queue.schedule([id, seq] { consume(id, seq); })) {
            ++seq;
        } else {
            std::this_thread::yield();  // full: let the consumer free slots (2 vCPUs)
        }
    }
    t.detach();
}

}  // namespace

TEST(deferred_stress, threads_and_signal_handlers_no_loss_no_reorder) {
    kairos::ticker main_ticker;  // interrupts the consumer
    ASSERT_TRUE(main_ticker.attach_us(200, &signal_producer<2>));
    std::atomic<int> running{2};
    std::thread p0([&] {
        thread_producer(0, false);
        running.fetch_sub(1, std::memory_order_release);  // release: its pushes happen-before
    });
    std::thread p1([&] {
        thread_producer(1, true);
        running.fetch_sub(1, std::memory_order_release);  // release: as above
    });
    std::uint64_t ran = 0;
    while (running.load(std::memory_order_acquire) > 0) ran += queue.run();  // acquire: pairs
    p0.join();
    p1.join();
    signals_stop.store(true, std::memory_order_relaxed);  // relaxed: a stop hint only
    main_ticker.detach();
    for (int i = 0; i < 10; ++i) ran += queue.run();  // drain
    EXPECT_EQ(queue.pending(), 0u);

    EXPECT_EQ(out_of_order, 0u);
    EXPECT_EQ(expected[0], thread_items);
    EXPECT_EQ(expected[1], thread_items);
    EXPECT_EQ(expected[2], signal_pushed[2].load(std::memory_order_relaxed));
    EXPECT_EQ(expected[3], signal_pushed[3].load(std::memory_order_relaxed));
    EXPECT_GT(expected[2], 0u) << "the consumer's signal handler never pushed";
    EXPECT_GT(expected[3], 0u) << "the producer's signal handler never pushed";
    EXPECT_EQ(ran, std::uint64_t{expected[0]} + expected[1] + expected[2] + expected[3]);
}

// SPDX-License-Identifier: MIT
// The ESP8266 compatibility layer: the seed sketch of esp8266/Arduino PR
// #6139 (100 000 messages from a 1 ms Ticker into the scheduler) compiled
// almost verbatim and run on the host, plus the API surface of Schedule.h,
// PolledTimeout.h and Ticker.h as sketches use it.
//
// Changes to the sketch: Serial/String output replaced by counters, MSGCNT
// 10 000 instead of 100 000 (a 0.33 s test), delay(1000) -> delay(100),
// schedule_function_us -> schedule_recurrent_function_us (its current name).
#include <gtest/gtest.h>

#include <Schedule.h>
#include <Ticker.h>

#include <cstdint>
#include <functional>

#include "PolledTimeout.h"
#include "kairos_host.hpp"

namespace sketch {
int bad_id = 0, reversed = 0, skipped = 0, lost = 0, bad_last = 0, alive = 0, dots = 0;

// The sketch is not warning-clean (int vs unsigned long, id < 0 on an
// unsigned): compiling it unchanged is the point.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wtype-limits"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wunused-parameter"

// ---- begin sketch -----------------------------------------------------------
constexpr long unsigned MSGCNT = 10000;
constexpr long unsigned MSGSPERTICKER = 30;

int pending = 1;

long unsigned msgNo = 0;
long unsigned nextVal[] = { 0 };

uint32_t startMillis;

bool checkMessage(long unsigned msg)
{
	const auto id = msg & 0x1f;
	const auto val = msg >> 5;

	if (id < 0 || id >= 1) {
		++bad_id;
		return true;
	}
	if (val == MSGCNT - 1) {
		--pending;
		return false;
	}

	if (val != nextVal[id])
	{
		if (val < nextVal[id]) {
			++reversed;
			nextVal[id] = val + 1;
		}
		else {
			++skipped;
			lost += int(val - nextVal[id]);
			nextVal[id] = val + 1;
		}
	}
	else
	{
		nextVal[id] = val + 1;
	}
	return true;
}

Ticker ticker;

ICACHE_RAM_ATTR void tickerCallback(int)
{
	for (int i = 0; i < MSGSPERTICKER; ++i) {
		if (msgNo >= MSGCNT) return;
		auto msg = (msgNo << 5) + 0;

		if (schedule_function([msg]()
			{
				if (!checkMessage(msg)) { ticker.detach(); }
			}))
		{
			++msgNo;
		}
	}
}

void setup()
{
	delay(100);
	startMillis = millis();

	if (schedule_recurrent_function_us([]() { ++alive; yield(); return true; }, 5000000))
	{
	}
	else
	{
		ADD_FAILURE() << "could not schedule 'scheduler alive' function";
	}

	schedule_recurrent_function_us([]() { ++dots; return true; }, 50000);

	ticker.attach_ms<int>(1, tickerCallback, 0);
}

esp8266::polledTimeout::periodicFastUs loopAlive(5000000);

void loop()
{
	if (pending == 0)
	{
		const auto val = nextVal[0];
		if (val != MSGCNT - 1)
		{
			++bad_last;
		}

		pending = -1;
	}

	if (loopAlive) ++alive;
}
// ---- end sketch -------------------------------------------------------------
#pragma GCC diagnostic pop
}  // namespace sketch

TEST(esp8266_compat, seed_sketch_runs_without_loss_or_reorder) {
    sketch::setup();
    const std::uint32_t start = millis();
    // The ESP8266 core's main loop: loop(), then the scheduled functions.
    while (sketch::pending != -1 && millis() - start < 20000) {
        sketch::loop();
        run_scheduled_functions();
        run_scheduled_recurrent_functions();
    }
    const std::uint32_t elapsed = millis() - sketch::startMillis;
    sketch::ticker.detach();
    EXPECT_EQ(sketch::pending, -1) << "did not finish";
    EXPECT_EQ(sketch::msgNo, sketch::MSGCNT);
    EXPECT_EQ(sketch::bad_id, 0);
    EXPECT_EQ(sketch::reversed, 0);
    EXPECT_EQ(sketch::skipped, 0);
    EXPECT_EQ(sketch::lost, 0);
    EXPECT_EQ(sketch::bad_last, 0);
    // 10 000 / 30 per 1 ms tick: at least 333 ms by construction.
    EXPECT_GE(elapsed, 333u);
    EXPECT_GT(sketch::dots, 0);  // the 50 ms recurrent function ran meanwhile
    run_scheduled_functions();  // nothing may be left behind
    EXPECT_EQ(kairos::esp8266_compat::global_scheduler.pending(), 0u);
}

TEST(esp8266_compat, schedule_function_accepts_std_function_and_callables) {
    int n = 0;
    std::function<void()> f = [&n] { n += 1; };
    EXPECT_TRUE(schedule_function(f));
    EXPECT_TRUE(schedule_function([&n] { n += 10; }));
    static int* sp = &n;
    EXPECT_TRUE(schedule_function(+[] { *sp += 100; }));
    std::function<void()> empty;
    EXPECT_FALSE(schedule_function(empty));
    // Too large for a slot: converted to std::function (allowed here,
    // refused at compile time by the native API).
    struct big {
        char pad[200];
        int* target;
        void operator()() const { *target += 1000 + pad[0]; }
    };
    big b{};
    b.target = &n;
    EXPECT_TRUE(schedule_function(b));
    run_scheduled_functions();
    EXPECT_EQ(n, 1111);
}

TEST(esp8266_compat, overflow_is_counted_not_silent) {
    run_scheduled_functions();
    const std::uint32_t before = scheduled_function_overflows();
    int ok = 0;
    while (schedule_function([] {})) ++ok;
    EXPECT_EQ(ok, SCHEDULED_FN_MAX_COUNT);
    EXPECT_FALSE(schedule_function([] {}));
    EXPECT_EQ(scheduled_function_overflows(), before + 2);
    run_scheduled_functions();
}

TEST(esp8266_compat, recurrent_with_alarm_and_delay_hint) {
    int runs = 0;
    bool alarm = false;
    EXPECT_TRUE(schedule_recurrent_function_us([&runs] { return ++runs < 3; }, 60000000,
                                               [&alarm] { return alarm; }));
    const std::uint32_t d = get_scheduled_recurrent_delay_us();
    EXPECT_LE(d, 60000000u);  // the seed sketch's 50 ms function may still be registered
    run_scheduled_recurrent_functions();
    EXPECT_EQ(runs, 0);
    alarm = true;
    for (int i = 0; i < 5; ++i) run_scheduled_recurrent_functions();
    EXPECT_EQ(runs, 3);  // third call returned false: removed
    EXPECT_FALSE(schedule_recurrent_function_us(std::function<bool()>{}, 10));
}

TEST(esp8266_compat, polled_timeout_names) {
    using namespace esp8266::polledTimeout;
    kairos::host::use_virtual_clock(true);  // time moves only by advance_clock()
    oneShotMs o(20);
    periodicMs p(5);
    oneShotFastUs ou(1000);
    periodicFastUs pu(500);
    oneShotFastNs on(1000000);
    EXPECT_FALSE(o.expired());
    EXPECT_TRUE(o.canExpire());
    EXPECT_TRUE(o.canWait());
    EXPECT_EQ(o.getTimeout(), 20u);
    EXPECT_EQ(oneShotMs::timeMax(), 0xFFFFFFFEu);
    EXPECT_EQ(oneShotMs::neverExpires, 0xFFFFFFFFu);
    // 1 ms of virtual time per loop turn: p expires at 5, 10 and 15 ms; at
    // 20 ms o ends the loop before p is polled.
    int periods = 0;
    while (!o) {
        if (p) ++periods;
        kairos::host::advance_clock(1000);
    }
    EXPECT_EQ(periods, 3);
    EXPECT_TRUE(ou.expired());
    EXPECT_TRUE(on.expired());
    EXPECT_TRUE(pu.expired());
    o.resetToNeverExpires();
    EXPECT_FALSE(o.canExpire());
    EXPECT_FALSE(o.expired());
    o.reset(0);
    EXPECT_TRUE(static_cast<bool>(o));
    oneShot legacy = 10;  // implicit construction, as upstream allows
    EXPECT_FALSE(legacy.expired());
    oneShotYieldMs y(1);
    while (!y) {
        kairos::host::advance_clock(100);
    }
    kairos::host::use_virtual_clock(false);
}

TEST(esp8266_compat, ticker_api) {
    // On the virtual clock: exact tick counts on any machine.
    kairos::host::use_virtual_clock(true);
    static volatile int hits = 0;
    Ticker t;
    t.attach_ms(1, [] { hits = hits + 1; });
    EXPECT_TRUE(t.active());
    kairos::host::advance_clock(30000);
    t.detach();
    EXPECT_FALSE(t.active());
    EXPECT_EQ(hits, 30);
    kairos::host::advance_clock(10000);
    EXPECT_EQ(hits, 30);

    int scheduled_runs = 0;
    t.once_ms_scheduled(1, [&scheduled_runs] { ++scheduled_runs; });
    kairos::host::advance_clock(20000);
    EXPECT_EQ(scheduled_runs, 0);  // queued from the signal handler, runs in the loop
    run_scheduled_functions();
    EXPECT_EQ(scheduled_runs, 1);
    EXPECT_FALSE(t.active());
    kairos::host::use_virtual_clock(false);
}

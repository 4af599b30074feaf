// SPDX-License-Identifier: MIT
// Portable kernel scenarios, thread flags set from an interrupt. Rules and
// helpers: kernel_scenarios_base.hpp.
#pragma once

#include "kernel_scenarios_base.hpp"

namespace scenarios::kernel {

// Thread flags set from an interrupt: wait_any, wait_all, wait_one.
inline void flags_from_isr(trigger_fn trigger) {
    begin();
    static k::pid waiter;
    static trigger_fn trig;
    static k::flags_t to_set;
    trig = trigger;
    isr_body = [] { KT_CHECK_EQ(k::flags_set(waiter, to_set), 0); };
    waiter = spawn(4, [](void*) {
        log.add(static_cast<int>(k::flags_wait_any(0x3)));   // 0x2
        log.add(static_cast<int>(k::flags_wait_all(0x30)));  // after 0x10 and 0x20
        log.add(static_cast<int>(k::flags_wait_one(0x700)));  // 0x100 of 0x500
        log.add(static_cast<int>(k::flags_wait_one(0x700)));  // 0x400, no block
        log.add(static_cast<int>(k::flags_clear(0xFFFFFFFFu)));  // 0x8 left over
    });
    spawn(9, [](void*) {
        to_set = 0x2 | 0x8;
        trig();
        k::yield_higher();
        log.add(-1);
        to_set = 0x10;
        trig();
        k::yield_higher();  // not all: waiter stays blocked
        log.add(-2);
        KT_CHECK_EQ(k::state(waiter), k::thread_state::blocked_flags);
        to_set = 0x20;
        trig();
        k::yield_higher();
        log.add(-3);
        to_set = 0x500;
        trig();
        k::yield_higher();
        log.add(-4);
    });
    finish();
    KT_CHECK(log.equals({2, -1, -2, 0x30, -3, 0x100, 0x400, 0x8, -4}));
}

}  // namespace scenarios::kernel

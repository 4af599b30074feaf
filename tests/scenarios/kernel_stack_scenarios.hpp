// SPDX-License-Identifier: MIT
// Portable kernel scenarios, stacks: the high-water mark and an overflow
// that the switch must report. Rules and helpers: kernel_scenarios_base.hpp.
#pragma once

#include "kernel_scenarios_base.hpp"

namespace scenarios::kernel {

// Stack high-water mark: grows with use, never exceeds the stack.
inline void use_4k_of_stack() {
    volatile unsigned char big[4096];
    for (auto& b : big) b = 1;
}

inline void stack_high_water() {
    begin();
    static std::size_t before, after;
    spawn(5, [](void*) {
        before = k::stack_unused(k::self());
        void (*volatile deeper)() = use_4k_of_stack;  // a call, not inlined
        deeper();
        after = k::stack_unused(k::self());
    });
    finish();
    KT_CHECK(before < stack_size);
    KT_CHECK(before > 0);
    KT_CHECK(after + 2048 <= before);  // 4 KiB deeper, minus stack_unused's own frame
}

// stack_overflow_victim() runs a thread that writes over the bottom of its
// own stack (where the canary lives) and yields: the switch must halt with
// "stack overflow in thread 'victim'". For death tests: never returns.
inline void stack_overflow_victim() {
    begin();
    spawn(5, [](void*) {
        // Simulate running out of stack without leaving the array (which
        // ASan would catch first): clobber the lowest bytes.
        volatile unsigned char* lo = stacks[0];
        for (int i = 0; i < 8; ++i) lo[i] = 0;
        k::yield();
        log.add(1);  // not reached
    }, nullptr, "victim");
    finish();
}

}  // namespace scenarios::kernel

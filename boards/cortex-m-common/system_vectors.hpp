// SPDX-License-Identifier: MIT
// The first 16 entries of every Cortex-M vector table (ARMv6-M/ARMv7-M
// architecture: initial SP, Reset, then the system exceptions), under their
// CMSIS names, for the boards' startups. The startup defines Reset_Handler,
// HardFault_Handler and the others (weak aliases of its Default_Handler);
// PendSV_Handler is kairos's (pendsv.S) and SysTick_Handler kairos's weak
// default unless the firmware has its own, so a startup only declares those
// two: a weak alias there would win over kairos's weak SysTick_Handler.
#pragma once

extern "C" {
[[noreturn]] void Reset_Handler();
void NMI_Handler();
void HardFault_Handler();
void MemManage_Handler();
void BusFault_Handler();
void UsageFault_Handler();
void SVC_Handler();
void DebugMon_Handler();
void PendSV_Handler();
void SysTick_Handler();
}

// KAIROS_CORTEX_M_SYSTEM_VECTORS(sp) expands to the 16 entries, sp first.
#define KAIROS_CORTEX_M_SYSTEM_VECTORS(sp)                                                      \
    reinterpret_cast<void (*)()>(sp), Reset_Handler, NMI_Handler, HardFault_Handler,            \
        MemManage_Handler, BusFault_Handler, UsageFault_Handler, nullptr, nullptr, nullptr,     \
        nullptr, SVC_Handler, DebugMon_Handler, nullptr, PendSV_Handler, SysTick_Handler

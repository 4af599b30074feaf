/* SPDX-License-Identifier: MIT */
/* Stand-in for ESP-IDF's freertos/FreeRTOS.h and the portmacro.h it
 * includes (tests/framework/esp32_stub): the base types, the SMP spinlock
 * type and the critical-section and ISR macros port/framework_esp32 uses,
 * spelled and dispatched as ESP-IDF does (the _SAFE forms choose the task
 * or the ISR form by xPortInIsrContext()). Each host thread is one core
 * (esp32_stub::set_core()); the spinlock is a real spinlock. */
#pragma once

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int BaseType_t;
typedef unsigned int UBaseType_t;
typedef uint32_t TickType_t;

#define pdFALSE ((BaseType_t)0)
#define pdTRUE ((BaseType_t)1)
#define pdPASS pdTRUE
#define pdFAIL pdFALSE
#define portMAX_DELAY ((TickType_t)0xffffffffUL)

/* spinlock_t as ESP-IDF lays it out: the owning core's id (SPINLOCK_FREE
 * when free) and the owner's nesting count. */
typedef struct {
    uint32_t owner;
    uint32_t count;
} spinlock_t;
#define SPINLOCK_FREE 0xB33FFFFFu
#define SPINLOCK_INITIALIZER {SPINLOCK_FREE, 0}

typedef spinlock_t portMUX_TYPE;
#define portMUX_INITIALIZER_UNLOCKED SPINLOCK_INITIALIZER

BaseType_t xPortInIsrContext(void);

/* Task and ISR critical sections: mask this core's interrupts, then take
 * the spinlock (recursive on one core). The stand-in keeps the two forms
 * apart so a test sees which one the _SAFE form chose. */
void vPortEnterCritical(portMUX_TYPE* mux);
void vPortExitCritical(portMUX_TYPE* mux);
void esp32_stub_enter_critical_isr(portMUX_TYPE* mux);
void esp32_stub_exit_critical_isr(portMUX_TYPE* mux);
#define portENTER_CRITICAL(mux) vPortEnterCritical(mux)
#define portEXIT_CRITICAL(mux) vPortExitCritical(mux)
#define portENTER_CRITICAL_ISR(mux) esp32_stub_enter_critical_isr(mux)
#define portEXIT_CRITICAL_ISR(mux) esp32_stub_exit_critical_isr(mux)

static inline void vPortEnterCriticalSafe(portMUX_TYPE* mux) {
    if (xPortInIsrContext()) {
        portENTER_CRITICAL_ISR(mux);
    } else {
        portENTER_CRITICAL(mux);
    }
}
static inline void vPortExitCriticalSafe(portMUX_TYPE* mux) {
    if (xPortInIsrContext()) {
        portEXIT_CRITICAL_ISR(mux);
    } else {
        portEXIT_CRITICAL(mux);
    }
}
#define portENTER_CRITICAL_SAFE(mux) vPortEnterCriticalSafe(mux)
#define portEXIT_CRITICAL_SAFE(mux) vPortExitCriticalSafe(mux)

/* portYIELD_FROM_ISR(x): ESP-IDF switches at interrupt exit when x is
 * pdTRUE; the stand-in records the call and its argument. */
void esp32_stub_yield_from_isr(BaseType_t higher_priority_task_woken);
#define portYIELD_FROM_ISR(x) esp32_stub_yield_from_isr(x)

#ifdef __cplusplus
}
#endif

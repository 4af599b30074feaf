/* SPDX-License-Identifier: MIT */
/* Stand-in for ESP-IDF's freertos/task.h (tests/framework/esp32_stub): the
 * task handle and the direct-to-task notification API with FreeRTOS
 * 10.4+'s spelling (the short names are macros over the indexed generic
 * functions). The stand-in's tasks are records the test creates
 * (esp32_stub::make_task()); a notification increments the record's count. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "FreeRTOS.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tskTaskControlBlock* TaskHandle_t;

typedef enum {
    eNoAction = 0,
    eSetBits,
    eIncrement,
    eSetValueWithOverwrite,
    eSetValueWithoutOverwrite
} eNotifyAction;

#define tskDEFAULT_INDEX_TO_NOTIFY 0

TaskHandle_t xTaskGetCurrentTaskHandle(void);
BaseType_t xTaskGenericNotify(TaskHandle_t xTaskToNotify, UBaseType_t uxIndexToNotify, uint32_t ulValue,
                              eNotifyAction eAction, uint32_t* pulPreviousNotificationValue);
void vTaskGenericNotifyGiveFromISR(TaskHandle_t xTaskToNotify, UBaseType_t uxIndexToNotify,
                                   BaseType_t* pxHigherPriorityTaskWoken);
uint32_t ulTaskGenericNotifyTake(UBaseType_t uxIndexToWaitOn, BaseType_t xClearCountOnExit,
                                 TickType_t xTicksToWait);

#define xTaskNotifyGive(xTaskToNotify) \
    xTaskGenericNotify((xTaskToNotify), (tskDEFAULT_INDEX_TO_NOTIFY), (0), eIncrement, NULL)
#define vTaskNotifyGiveFromISR(xTaskToNotify, pxHigherPriorityTaskWoken) \
    vTaskGenericNotifyGiveFromISR((xTaskToNotify), (tskDEFAULT_INDEX_TO_NOTIFY), (pxHigherPriorityTaskWoken))
#define ulTaskNotifyTake(xClearCountOnExit, xTicksToWait) \
    ulTaskGenericNotifyTake((tskDEFAULT_INDEX_TO_NOTIFY), (xClearCountOnExit), (xTicksToWait))

#ifdef __cplusplus
}
#endif

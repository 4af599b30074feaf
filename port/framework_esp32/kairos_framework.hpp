// SPDX-License-Identifier: MIT
// kairos_framework.hpp: what port/framework_esp32 offers beyond port.hpp,
// for ESP-IDF applications and arduino-esp32 sketches running kairos on the
// framework's FreeRTOS.
#pragma once

namespace kairos::framework {

// wake(task) wakes the FreeRTOS task whose handle (TaskHandle_t) is task
// through a task notification: xTaskNotifyGive() from a task,
// vTaskNotifyGiveFromISR() and portYIELD_FROM_ISR() from an interrupt
// (xPortInIsrContext() tells which), so a consumer blocked in
// ulTaskNotifyTake() runs as soon as the scheduler allows, on either core.
// It has the signature of kairos::deferred::wake_fn: in the consumer task,
//   sched.set_wake_hook(kairos::framework::wake, xTaskGetCurrentTaskHandle());
//   for (;;) { sched.run(); ulTaskNotifyTake(pdTRUE, ticks_to_next_due); }
// makes every schedule() (and every schedule_recurrent() or cancel() that
// takes effect), on either core and also from an interrupt, wake it. task
// must not be null. Context: any, but not inside a critical section of the
// caller's (FreeRTOS may yield here); kairos itself calls its wake hook
// outside its critical sections.
void wake(void* task) noexcept;

}  // namespace kairos::framework

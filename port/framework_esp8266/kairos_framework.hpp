// SPDX-License-Identifier: MIT
// kairos_framework.hpp: what port/framework_esp8266 offers beyond port.hpp,
// for sketches and libraries running kairos on the ESP8266 Arduino core or
// the NONOS SDK.
#pragma once

namespace kairos::framework {

// wake(ctx) wakes the sketch's loop through the framework: esp_schedule(),
// which makes the core run its loop task again (and resumes a loop
// suspended in esp_delay()/esp_suspend()). It has the signature of
// kairos::deferred::wake_fn: sched.set_wake_hook(kairos::framework::wake,
// nullptr) makes every schedule() (and every schedule_recurrent() or
// cancel() that takes effect), also from an interrupt, wake the loop that
// runs sched.run(). ctx is unused. Context: any (esp_schedule() only
// posts to the SDK's task queue).
void wake(void* ctx) noexcept;

}  // namespace kairos::framework

// SPDX-License-Identifier: MIT
// Portable kernel scenarios (RIOT tests/core ported), one header per
// subsystem; the shared rules and helpers are in kernel_scenarios_base.hpp.
// Test drivers include this header for all of them.
#pragma once

#include "kernel_scenarios_base.hpp"

#include "kernel_flags_scenarios.hpp"
#include "kernel_msg_scenarios.hpp"
#include "kernel_mutex_scenarios.hpp"
#include "kernel_sleep_scenarios.hpp"
#include "kernel_stack_scenarios.hpp"
#include "kernel_thread_scenarios.hpp"

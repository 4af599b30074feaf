// SPDX-License-Identifier: MIT
// kairos/port_config.hpp: generated from cmake/port_config.hpp.in for one
// port: by CMake for the port a kairos library is built with (and installed
// with it), by scripts/make-port-config for the copies that builds without
// a configure step use (port/framework_*/, the Arduino library).
// include/kairos/port.hpp reads it; do not edit.
#pragma once

// KAIROS_PORT_NAME: the port under port/, as port::name() returns it.
#define KAIROS_PORT_NAME "framework_esp32"

// KAIROS_PORT_IRQ_INLINE: 1 when the port defines irq_disable(),
// irq_restore(), in_isr() and request_switch() inline in its
// kairos_port_irq.hpp (then every translation unit must see those
// definitions), 0 when they are out-of-line functions of the library.
#define KAIROS_PORT_IRQ_INLINE 0

// KAIROS_PORT_IDLE_IN_SWITCH: 1 when the port's switch may wait for an
// interrupt (port::idle()) inside kairos_sched_switch(); 0 when it must not
// (Cortex-M: the switch runs in PendSV, whose priority is the lowest, so an
// interrupt at that priority could not run while the kernel waits there),
// then the kernel waits in its own idle context, in thread mode.
#define KAIROS_PORT_IDLE_IN_SWITCH 1

// KAIROS_PORT_DIRECT_SWITCH: 1 when the port defines port::switch_to()
// (include/kairos/port.hpp), a switch between two context handles the
// kernel has already chosen, which the kernel then calls itself on paths
// whose decision it makes without kairos_sched_switch() (yield()); 0 when
// every switch goes through request_switch() and the port's routine.
#define KAIROS_PORT_DIRECT_SWITCH 0

// KAIROS_MAX_SYSCALL_PRIO: the CMake cache option of that name, the raw
// 8-bit BASEPRI value kairos' critical sections set on Cortex-M ARMv7-M and
// ARMv8-M mainline (interrupts more urgent than it are never masked and must
// not call kairos). Other ports ignore it.
#define KAIROS_MAX_SYSCALL_PRIO 64

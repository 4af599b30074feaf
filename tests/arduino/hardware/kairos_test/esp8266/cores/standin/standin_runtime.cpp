// SPDX-License-Identifier: MIT
// memcpy/memmove/memset/memcmp, atexit and __dso_handle for the
// freestanding build (the ESP8266 core links newlib instead): the target
// tests' (tests/target/runtime_libc.inc).
#include "../../../../../../target/runtime_libc.inc"

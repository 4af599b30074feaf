// SPDX-License-Identifier: MIT
// The integer helpers Debian's lx106 libgcc lacks (the ESP8266 toolchain's
// libgcc has them): the lx106 port's.
#include "../../../../../../../port/xtensa_lx106/arith.cpp"

// SPDX-License-Identifier: MIT
// The record of the kernel configuration this library was compiled with: a
// symbol whose name spells the sizes (kernel/config.hpp). Every translation
// unit that includes the kernel headers refers to the symbol its own sizes
// name, so one compiled with other sizes fails to link, naming them.
#include <kairos/kernel/config.hpp>

extern "C" const char KAIROS_KERNEL_CONFIG_SYMBOL = 0;

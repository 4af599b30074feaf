// SPDX-License-Identifier: MIT
// kairos_assert_failed(): a violated precondition is a panic of the port.
#include <kairos/config.hpp>
#include <kairos/port.hpp>

// Defined in every build, with or without KAIROS_ASSERTS (config.hpp).
extern "C" void kairos_assert_failed(const char* expr, const char* file, int line) noexcept {
    kairos_port_panic(expr, file, line);
}

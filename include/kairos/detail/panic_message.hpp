// SPDX-License-Identifier: MIT
// write_panic_message(what, file, line) writes "kairos: panic: what
// (file:line)" through port::console_write() alone: no stdio, no heap, a
// few dozen bytes of stack, so that a port's kairos_port_panic() can call
// it from any context. Shared by the ports' kairos_port_panic().
#pragma once

#include <kairos/detail/decimal.hpp>
#include <kairos/port.hpp>

#include <cstdint>

namespace kairos::detail {

inline void write_panic_message(const char* what, const char* file, int line) noexcept {
    port::console_write("kairos: panic: ");
    port::console_write(what);
    port::console_write(" (");
    port::console_write(file);
    port::console_write(":");
    char buf[11];
    *put_decimal(buf, static_cast<std::uint32_t>(line)) = '\0';
    port::console_write(buf);
    port::console_write(")\n");
}

}  // namespace kairos::detail

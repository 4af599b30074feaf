// SPDX-License-Identifier: MIT
// kairos/detail/raw_storage.hpp: uninitialized, suitably aligned bytes that
// a constexpr constructor may leave alone.
//
// The rings' slots and inplace_function's buffer hold an object only while
// one is stored. C++17 requires a constexpr constructor to initialize every
// member, so a plain `unsigned char buf[N]` member would make the owner's
// constructor non-constexpr, and a global ring or scheduler would be built
// by start-up code (docs/targets.md, "Code size"). Initializing the empty
// member of this union satisfies that rule without writing the bytes:
// constant-initialized globals stay all zero in .bss, and an object on the
// stack costs nothing to construct.
#pragma once

#include <cstddef>

namespace kairos::detail {

// raw_storage<Size, Align> is Size bytes aligned to Align, not initialized.
template <std::size_t Size, std::size_t Align>
union raw_storage {
    struct nothing {};

    constexpr raw_storage() noexcept : none() {}

    nothing none;  // the member a constexpr constructor initializes
    alignas(Align) unsigned char bytes[Size];
};

}  // namespace kairos::detail

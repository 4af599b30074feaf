// SPDX-License-Identifier: MIT
// heap.cpp: the heap of the linked-list baseline firmware. malloc and free
// are picolibc's (Debian picolibc-xtensa-lx106-elf); sbrk hands out a static
// arena, since the board's linker script reserves no heap. operator new and
// delete go to malloc and free, and std::function's one library function is
// defined here (the lx106 toolchain has no libstdc++). Task and interrupt
// context both allocate: the baseline allocates only under its interrupt
// lock, as the ESP8266 core does.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <new>

#include <kairos/port.hpp>

extern "C" void* malloc(std::size_t n);
extern "C" void free(void* p);

namespace {
constexpr std::size_t arena_size = 16 * 1024;
alignas(8) unsigned char arena[arena_size];
std::size_t brk = 0;
}  // namespace

// sbrk(n) extends the heap by n bytes; (void*)-1 when the arena is spent.
extern "C" void* sbrk(std::ptrdiff_t n) {
    if (n < 0 || static_cast<std::size_t>(n) > arena_size - brk) return reinterpret_cast<void*>(-1);
    void* p = arena + brk;
    brk += static_cast<std::size_t>(n);
    return p;
}

void* operator new(std::size_t n) {
    void* p = malloc(n);
    if (p == nullptr) kairos_port_panic("heap: out of memory", __FILE__, __LINE__);
    return p;
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return malloc(n); }
void operator delete(void* p) noexcept { free(p); }
void operator delete(void* p, std::size_t) noexcept { free(p); }

namespace std {
void __throw_bad_function_call() { kairos_port_panic("std::function: empty call", __FILE__, __LINE__); }
}  // namespace std

namespace std {
const nothrow_t nothrow{};
}  // namespace std

// SPDX-License-Identifier: MIT
// kairos/rmw.hpp: how concurrent producers update a shared word, as a
// template parameter of the structures that have such producers (mpsc_ring,
// circular_queue_mp, deferred).
//
//   rmw_cas               compare-and-swap (and other hardware read-modify-
//                         write): lock-free, any number of cores.
//   rmw_masked<Section>   a plain load and store inside Section::enter() /
//                         Section::leave(), by default the port's interrupt
//                         mask (irq_section): for single-core targets without
//                         CAS (ARMv6-M, lx106), where no other producer runs
//                         while interrupts are masked.
//   rmw_default           rmw_cas where KAIROS_HAS_CAS, else rmw_masked<>.
//
// Both paths are compiled from one header, so a host build tests and model-
// checks each (tests/unit/mpsc_nocas_test.cpp, tests/model). The policy is
// a type with no state: the code of the default path is what it was when
// the choice was a macro.
#pragma once

#include <kairos/config.hpp>

#include <type_traits>

namespace kairos {

// rmw_cas: producers update shared words with hardware read-modify-write.
struct rmw_cas {
    static constexpr bool uses_cas = true;
};

// irq_section (kairos/irq_section.hpp) is the port's interrupt mask as a
// Section. Declared here so that rmw_masked<> names it without pulling in
// the port contract; the header is included below where it is the default,
// and a program that picks rmw_masked<> on a CAS target includes it.
struct irq_section;

// rmw_masked<Section>: producers update shared words with a load and a
// store between Section::enter() and Section::leave(s). Section must
// exclude every other context that updates the same words (the interrupt
// mask does on a single core) and order what comes before leave() before
// what comes after the next enter(); a Section is a type with
// `using state`, `static state enter() noexcept` and
// `static void leave(state) noexcept`, and it may not allocate or block
// (producers run in interrupt handlers).
template <class Section = irq_section>
struct rmw_masked {
    static constexpr bool uses_cas = false;
    using section = Section;
};

// rmw_default is the target's choice: KAIROS_HAS_CAS (config.hpp).
using rmw_default = std::conditional_t<KAIROS_HAS_CAS != 0, rmw_cas, rmw_masked<>>;

namespace detail {

// is_rmw_policy<P> is true for rmw_cas and every rmw_masked<S>.
template <class P>
inline constexpr bool is_rmw_policy = std::is_same_v<P, rmw_cas>;
template <class S>
inline constexpr bool is_rmw_policy<rmw_masked<S>> = true;

}  // namespace detail
}  // namespace kairos

#if !KAIROS_HAS_CAS
#    include <kairos/irq_section.hpp>  // rmw_default's section
#endif

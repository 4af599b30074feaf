// SPDX-License-Identifier: MIT
/* ck_shim.c: ck_ring through a C translation unit.
 *
 * The packaged <ck_ring.h> (libck-dev 0.7.1) is C only: it returns `false`
 * from a function returning void*, which C++ rejects. kairos-bench is built
 * with link-time optimisation in Release, so these one-line wrappers are
 * inlined into the C++ benchmark loops like every other peer's header code.
 */
#if KAIROS_BENCH_HAVE_CK
#include <ck_ring.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

struct kb_ck {
    ck_ring_t ring; /* ck pads c_head and p_head/p_tail to separate lines */
    ck_ring_buffer_t slots[];
};

struct kb_ck* kb_ck_create(unsigned slots) {
    size_t bytes = sizeof(struct kb_ck) + slots * sizeof(ck_ring_buffer_t);
    bytes = (bytes + 127u) / 128u * 128u;
    struct kb_ck* q = aligned_alloc(128, bytes);
    if (q) ck_ring_init(&q->ring, slots);
    return q;
}

void kb_ck_destroy(struct kb_ck* q) { free(q); }

bool kb_ck_enqueue_spsc(struct kb_ck* q, uint64_t v) {
    return ck_ring_enqueue_spsc(&q->ring, q->slots, (void*)(uintptr_t)v);
}

bool kb_ck_dequeue_spsc(struct kb_ck* q, uint64_t* v) {
    void* p;
    if (!ck_ring_dequeue_spsc(&q->ring, q->slots, &p)) return false;
    *v = (uint64_t)(uintptr_t)p;
    return true;
}

bool kb_ck_enqueue_mpsc(struct kb_ck* q, uint64_t v) {
    return ck_ring_enqueue_mpsc(&q->ring, q->slots, (void*)(uintptr_t)v);
}

bool kb_ck_dequeue_mpsc(struct kb_ck* q, uint64_t* v) {
    void* p;
    if (!ck_ring_dequeue_mpsc(&q->ring, q->slots, &p)) return false;
    *v = (uint64_t)(uintptr_t)p;
    return true;
}
#endif

// SPDX-License-Identifier: MIT
/* insncount: a QEMU TCG plugin counting executed guest instructions.
 *
 * Debian's QEMU has the plugin loader (-plugin) and exports the
 * qemu_plugin_* API, but ships neither plugins nor qemu-plugin.h, so the
 * few declarations used are written out below (plugin API version 1, QEMU
 * 7.2). Every instruction gets an inline 64-bit add at translation time:
 * no callback per executed instruction. Output goes through
 * qemu_plugin_outs, i.e. to QEMU's log: run with `-d plugin`.
 *
 * Argument mark=ADDR (hex, Thumb bit ignored): each time the instruction at
 * ADDR executes, print "insncount: mark <total> <delta since last mark>".
 * At exit print "insncount: total <n>".
 *
 * Build with the HOST compiler:
 *   gcc -O2 -shared -fPIC -fvisibility=hidden -o libinsncount.so insncount.c
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;
struct qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t,
                                           void (*)(qemu_plugin_id_t, struct qemu_plugin_tb*));
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t, void (*)(qemu_plugin_id_t, void*), void*);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb*);
struct qemu_plugin_insn* qemu_plugin_tb_get_insn(const struct qemu_plugin_tb*, size_t);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn*);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn*, enum qemu_plugin_op,
                                                void*, uint64_t);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn*, void (*)(unsigned, void*),
                                            enum qemu_plugin_cb_flags, void*);
void qemu_plugin_outs(const char*);

EXPORT int qemu_plugin_version = 1;

static uint64_t count;        /* instructions executed so far (one vCPU) */
static uint64_t last_mark;    /* count at the previous mark */
static uint64_t mark = UINT64_MAX;

/* on_mark runs before the marked instruction, whose own add has not run. */
static void on_mark(unsigned vcpu, void* data) {
    char line[96];
    (void)vcpu;
    (void)data;
    snprintf(line, sizeof line, "insncount: mark %" PRIu64 " %" PRIu64 "\n", count,
             count - last_mark);
    qemu_plugin_outs(line);
    last_mark = count;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb* tb) {
    (void)id;
    for (size_t i = 0, n = qemu_plugin_tb_n_insns(tb); i < n; ++i) {
        struct qemu_plugin_insn* insn = qemu_plugin_tb_get_insn(tb, i);
        if (qemu_plugin_insn_vaddr(insn) == mark)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_mark, QEMU_PLUGIN_CB_NO_REGS, NULL);
        qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &count, 1);
    }
}

static void on_vm_exit(qemu_plugin_id_t id, void* data) {
    char line[64];
    (void)id;
    (void)data;
    snprintf(line, sizeof line, "insncount: total %" PRIu64 "\n", count);
    qemu_plugin_outs(line);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const struct qemu_info_t* info, int argc,
                               char** argv) {
    (void)info;
    for (int i = 0; i < argc; ++i) {
        if (strncmp(argv[i], "mark=", 5) == 0) mark = strtoull(argv[i] + 5, NULL, 16) & ~1ull;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, on_vm_exit, NULL);
    return 0;
}

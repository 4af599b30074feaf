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
 * Argument mark=ADDR (hex, on Arm the Thumb bit ignored; up to 16): each time
 * the instruction at one of the ADDRs executes, print
 * "insncount: mark <total> <delta since the last mark of any ADDR> <ADDR>".
 * At exit print "insncount: total <n>".
 *
 * Argument masked=1 (Arm M-profile guests): also track whether interrupts
 * are masked, and after every mark line print
 * "insncount: masked <longest span> <masked now> <anomalies> <from pc> <to pc>" for the
 * interval since the previous mark (then reset). masked.c has the model.
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
struct qemu_info_t { const char* target_name; /* more fields follow, unused */ };
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
const void* qemu_plugin_insn_data(const struct qemu_plugin_insn*);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn*);

EXPORT int qemu_plugin_version = 1;

static uint64_t count;        /* instructions executed so far (one vCPU) */
static uint64_t last_mark;    /* count at the previous mark */
enum { max_marks = 16 };
static uint64_t marks[max_marks];
static int n_marks;
static int track_masked;

#include "masked.c"

/* on_mark runs before the marked instruction, whose own add has not run. */
static void on_mark(unsigned vcpu, void* data) {
    char line[160];
    (void)vcpu;
    snprintf(line, sizeof line, "insncount: mark %" PRIu64 " %" PRIu64 " 0x%" PRIx64 "\n", count,
             count - last_mark, (uint64_t)(uintptr_t)data);
    qemu_plugin_outs(line);
    last_mark = count;
    if (track_masked) masked_report();
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb* tb) {
    (void)id;
    for (size_t i = 0, n = qemu_plugin_tb_n_insns(tb); i < n; ++i) {
        struct qemu_plugin_insn* insn = qemu_plugin_tb_get_insn(tb, i);
        const uint64_t pc = qemu_plugin_insn_vaddr(insn);
        for (int m = 0; m < n_marks; ++m) {
            if (pc == marks[m])
                qemu_plugin_register_vcpu_insn_exec_cb(insn, on_mark, QEMU_PLUGIN_CB_NO_REGS,
                                                       (void*)(uintptr_t)pc);
        }
        if (track_masked) masked_translate(insn);
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
    for (int i = 0; i < argc; ++i) {
        if (strncmp(argv[i], "mark=", 5) == 0 && n_marks < max_marks)
            marks[n_marks++] = strtoull(argv[i] + 5, NULL, 16);
        if (strcmp(argv[i], "masked=1") == 0) track_masked = 1;
    }
    if (strcmp(info->target_name, "arm") == 0) {
        for (int m = 0; m < n_marks; ++m) marks[m] &= ~1ull;  /* the Thumb bit (Xtensa: odd pcs exist) */
    }
    if (track_masked && strcmp(info->target_name, "arm") != 0) {
        fprintf(stderr, "insncount: masked=1 models only Arm M-profile, not %s\n", info->target_name);
        return -1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, on_vm_exit, NULL);
    return 0;
}

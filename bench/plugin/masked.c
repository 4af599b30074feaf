// SPDX-License-Identifier: MIT
/* masked.c: the interrupt-mask model of insncount (included by insncount.c,
 * not compiled alone). Arm M-profile Thumb only.
 *
 * QEMU 7.2's plugin API cannot read guest registers, so the mask state is
 * rebuilt from the instructions that change it, decoded at translation
 * time; only those (and the immediate moves feeding them) get an execution
 * callback:
 *   cpsid/cpsie i|f            PRIMASK/FAULTMASK = 1/0
 *   mrs rN, primask|basepri    (a read: remembered, see restores below)
 *   msr primask|basepri|basepri_max|faultmask, rN
 *   movs rN,#imm, mov.w rN,#imm, movw rN,#imm   (the value of rN, if an
 *                              msr reads rN within 4 instructions)
 *   cbnz rN                    (rN is 0 if the next instruction executed
 *                              is the one after it and is that msr)
 * "Masked" = PRIMASK, FAULTMASK or BASEPRI non-zero: some maskable
 * interrupt cannot be taken.
 *
 * The value an msr writes is known when rN was loaded with an immediate
 * just before (the usual mask-raising idiom, and PendSV's BASEPRI
 * writes); otherwise the msr is taken as a restore of the state an
 * earlier mrs saved: the newest saved entry read into the same rN if any
 * (it and those above it are dropped), else the newest entry. That is the
 * save/restore discipline of critical sections (irq_disable() returns the
 * mrs value, irq_restore() writes it back), nested LIFO. A restore with
 * nothing saved is an anomaly (an unobserved mrs): counted, reported with
 * the span, and taken as a return to unmasked.
 *
 * A span is the number of instructions executed after the instruction
 * that masked, up to and including the one that unmasked (callbacks run
 * before their instruction, whose own count has not been added yet).
 */

enum { sysm_primask = 16, sysm_basepri = 17, sysm_basepri_max = 18, sysm_faultmask = 19 };

static uint32_t m_primask, m_basepri, m_faultmask;
static uint64_t m_start;         /* count when the current masked span began */
static uint64_t m_max;           /* longest span in this interval */
static uint64_t m_anomalies;     /* restores with nothing saved, this interval */
static uint64_t m_start_pc;      /* the instruction that opened the current span */
static uint64_t m_max_from, m_max_to;  /* where the longest span opened and closed */

enum { saved_max = 32 };
static struct { uint8_t reg; uint32_t primask, basepri, faultmask; } m_saved[saved_max];
static int m_n_saved;

static uint32_t m_imm_val;       /* the last immediate move: value, register, count */
static int m_imm_reg = -1;
static uint64_t m_imm_at;
static uint64_t m_imm_only_pc;   /* non-zero: the value holds only for an msr here, next */

static int m_is_masked(void) { return m_primask || m_basepri || m_faultmask; }

/* m_after(was): the state changed at the current instruction; close or
 * open a span. */
static void m_after(int was, uint64_t pc) {
    const int now = m_is_masked();
    if (!was && now) {
        m_start = count;
        m_start_pc = pc;
    }
    if (was && !now && count - m_start > m_max) {
        m_max = count - m_start;
        m_max_from = m_start_pc;
        m_max_to = pc;
    }
}

static void masked_report(void) {
    char line[160];
    uint64_t longest = m_max, from = m_max_from, to = m_max_to;
    if (m_is_masked() && count - m_start > longest) {  /* still open */
        longest = count - m_start;
        from = m_start_pc;
        to = 0;
    }
    snprintf(line, sizeof line,
             "insncount: masked %" PRIu64 " %d %" PRIu64 " 0x%" PRIx64 " 0x%" PRIx64 "\n", longest,
             m_is_masked(), m_anomalies, from, to);
    qemu_plugin_outs(line);
    m_max = 0;
    m_anomalies = 0;
    if (m_is_masked()) m_start = count;  /* the open span counts on from here */
}

/* Callback data: one per instrumented instruction, allocated at
 * translation (a retranslated block allocates again: a few bytes). */
enum { op_cps, op_mrs, op_msr, op_imm, op_cbnz };
struct m_insn { uint8_t op, reg; uint32_t x; uint64_t pc; };
static void* m_pack(unsigned op, unsigned reg, uint32_t x, uint64_t pc) {
    struct m_insn* d = malloc(sizeof *d);
    if (d == NULL) abort();
    d->op = (uint8_t)op;
    d->reg = (uint8_t)reg;
    d->x = x;
    d->pc = pc;
    return d;
}

static void m_restore(unsigned reg) {
    int i = m_n_saved - 1;
    while (i >= 0 && m_saved[i].reg != reg) --i;
    if (i < 0) i = m_n_saved - 1;  /* no mrs into this register: the newest */
    if (i < 0) {
        /* Nothing saved: the mrs was not observed (QEMU does not call exec
         * callbacks for the instructions it re-executes in a block
         * recompiled for I/O under -icount). Counted; taken as the
         * restore of an outermost section, to unmasked. */
        ++m_anomalies;
        m_primask = m_basepri = m_faultmask = 0;
        return;
    }
    m_primask = m_saved[i].primask;
    m_basepri = m_saved[i].basepri;
    m_faultmask = m_saved[i].faultmask;
    m_n_saved = i;
}

static void m_on_exec(unsigned vcpu, void* data) {
    const struct m_insn* d = data;
    const unsigned op = d->op, reg = d->reg;
    const uint32_t x = d->x;
    const int was = m_is_masked();
    (void)vcpu;
    switch (op) {
    case op_imm:
    case op_cbnz:
        m_imm_reg = (int)reg;
        m_imm_val = op == op_imm ? x : 0;
        m_imm_at = count;
        m_imm_only_pc = op == op_imm ? 0 : d->pc + 2;
        return;
    case op_cps: /* x: bit 0 disable, bit 1 I, bit 2 F */
        if (x & 2) m_primask = x & 1;
        if (x & 4) m_faultmask = x & 1;
        break;
    case op_mrs:
        if (m_n_saved == saved_max) {  /* a read never restored: drop the oldest */
            memmove(&m_saved[0], &m_saved[1], sizeof m_saved[0] * (saved_max - 1));
            --m_n_saved;
        }
        m_saved[m_n_saved].reg = (uint8_t)reg;
        m_saved[m_n_saved].primask = m_primask;
        m_saved[m_n_saved].basepri = m_basepri;
        m_saved[m_n_saved].faultmask = m_faultmask;
        ++m_n_saved;
        return;
    case op_msr: {
        const int known = m_imm_reg == (int)reg &&
                          (m_imm_only_pc ? d->pc == m_imm_only_pc && count - m_imm_at == 1
                                         : count - m_imm_at <= 4);
        if (!known && x == sysm_basepri_max) {
            /* BASEPRI_MAX only ever raises the mask, so it is never a
             * restore; its value unknown (the immediate move feeding it
             * was not seen, as when QEMU retranslates a block at an icount
             * boundary), take it as masking at the lowest level if nothing
             * masks yet. */
            if (m_basepri == 0) m_basepri = 0xFF;
            break;
        }
        if (!known) {
            m_restore(reg);
            break;
        }
        const uint32_t v = m_imm_val & 0xFF;
        if (x == sysm_primask) m_primask = v & 1;
        else if (x == sysm_faultmask) m_faultmask = v & 1;
        else if (x == sysm_basepri) m_basepri = v;
        else if (v != 0 && (m_basepri == 0 || v < m_basepri)) m_basepri = v;  /* basepri_max */
        break;
    }
    }
    m_after(was, d->pc);
}

/* ThumbExpandImm (ARMv7-M ARM A5.3.2) of i:imm3:imm8. */
static uint32_t m_thumb_expand(uint32_t imm12) {
    const uint32_t imm8 = imm12 & 0xFF;
    if ((imm12 >> 10) == 0) {
        switch ((imm12 >> 8) & 3) {
        case 0: return imm8;
        case 1: return imm8 << 16 | imm8;
        case 2: return imm8 << 24 | imm8 << 8;
        default: return imm8 * 0x01010101u;
        }
    }
    const uint32_t v = 0x80 | (imm12 & 0x7F);
    const unsigned rot = imm12 >> 7;
    return v >> rot | v << (32 - rot);
}

static void masked_translate(struct qemu_plugin_insn* insn) {
    const uint8_t* b = qemu_plugin_insn_data(insn);
    const size_t size = qemu_plugin_insn_size(insn);
    const uint64_t pc = qemu_plugin_insn_vaddr(insn);
    void* data = NULL;
    if (size < 2) return;
    const uint32_t h1 = (uint32_t)b[0] | (uint32_t)b[1] << 8;
    if (size == 2) {
        if ((h1 & 0xFFE8) == 0xB660 && (h1 & 3))  /* CPS: 1011 0110 011 im 0 A I F */
            data = m_pack(op_cps, 0, ((h1 >> 4) & 1) | (h1 & 2) | (h1 & 1) << 2, pc);
        else if ((h1 & 0xF800) == 0x2000)  /* MOVS Rd, #imm8 */
            data = m_pack(op_imm, (h1 >> 8) & 7, h1 & 0xFF, pc);
        else if ((h1 & 0xFD00) == 0xB900)  /* CBNZ Rn, label */
            data = m_pack(op_cbnz, h1 & 7, 0, pc);
    } else if (size == 4) {
        const uint32_t h2 = (uint32_t)b[2] | (uint32_t)b[3] << 8;
        const unsigned sysm = h2 & 0xFF;
        const int mask_reg = sysm >= sysm_primask && sysm <= sysm_faultmask;
        if (h1 == 0xF3EF && (h2 & 0xF000) == 0x8000 && mask_reg)  /* MRS Rd, spec */
            data = m_pack(op_mrs, (h2 >> 8) & 0xF, sysm, pc);
        else if ((h1 & 0xFFF0) == 0xF380 && (h2 & 0xFF00) == 0x8800 && mask_reg)  /* MSR spec, Rn */
            data = m_pack(op_msr, h1 & 0xF, sysm, pc);
        else if ((h1 & 0xFBEF) == 0xF04F && (h2 & 0x8000) == 0)  /* MOV{S}.W Rd, #const */
            data = m_pack(op_imm, (h2 >> 8) & 0xF,
                          m_thumb_expand(((h1 >> 10) & 1) << 11 | ((h2 >> 12) & 7) << 8 | (h2 & 0xFF)), pc);
        else if ((h1 & 0xFBF0) == 0xF240 && (h2 & 0x8000) == 0)  /* MOVW Rd, #imm16 */
            data = m_pack(op_imm, (h2 >> 8) & 0xF,
                          (h1 & 0xF) << 12 | ((h1 >> 10) & 1) << 11 | ((h2 >> 12) & 7) << 8 | (h2 & 0xFF), pc);
    }
    if (data) qemu_plugin_register_vcpu_insn_exec_cb(insn, m_on_exec, QEMU_PLUGIN_CB_NO_REGS, data);
}

/* How far a kernel's accesses through its pointer parameters reach.
 *
 * A kernel given a pointer into an allocation is taken to reach from there
 * to the allocation's end unless its code says otherwise: kernels that work
 * on chunks of one allocation on several streams would all overlap.  This
 * analysis bounds them.  At a launch, with the grid's and the block's sizes
 * and the parameters' values known, it runs an interval analysis over the
 * kernel's SASS: thread and block indices lie in [0, size), parameters are
 * the launch's values, and each value is an interval of integers, an
 * interval of offsets from one pointer parameter, or unknown.  Comparisons
 * that guard an exit or a branch narrow the register they test ("if (i < n)
 * return"), loops widen what keeps growing.  Every load, store, reduction or
 * atomic through a parameter's pointer plus a known interval widens that
 * parameter's bounds; an access through an unknown address made from a
 * parameter (or a parameter stored to memory) leaves it unbounded.  Every
 * instruction the analysis does not model sets what it writes to unknown, so
 * that the bounds hold whatever it computes; calls of subroutines that
 * call others, and parameters read at computed places, give up on the
 * kernel.  Local memory is the thread's own: a pointer stored there
 * escapes, what is loaded from it is unknown.
 *
 * Values carry the parameter words they are computed from (as kkr_sass.c's
 * taint does), so an unknown address still names the pointers it may come
 * from. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kkr_bounds.h"
#include "kkr_sass.h"

#define NREGS 512   /* R0-R255, then UR0-UR255 */
#define NPRED 16    /* P0-P6 (0-6), UP0-UP6 (8-14); PT and UPT are 7, 15 */
#define ZERO (-1)   /* RZ, URZ */
#define MAXSRC 6
#define MAX_INS 16384
#define MAX_BLOCKS 2048
#define MAX_VISITS 64
#define WIDEN_AFTER 3
#define BIG ((int64_t)1 << 56) /* offsets beyond: unbounded */

/* ---- Operands ------------------------------------------------------------ */

enum { O_NONE, O_REG, O_IMM, O_CONST, O_SR, O_PRED, O_ADDR, O_OTHER };
enum { SR_TID = 1, SR_CTAID = 4, SR_LANE = 7, SR_OTHER = 8 };

typedef struct {
  uint8_t kind;
  uint8_t neg;   /* -R3 */
  uint8_t inv;   /* ~R3, !P0, |R3| : anything but the value itself */
  uint8_t wide;  /* R2.64 */
  uint8_t exact; /* O_ADDR: [Rn.64 + imm] */
  uint8_t pnot;  /* O_PRED: !P0 */
  int16_t reg;   /* O_REG, O_ADDR: register (UR: 256 on) or ZERO; O_PRED:
                    0-15 */
  int16_t reg2;  /* O_ADDR, O_OTHER: another register in it, or ZERO */
  int64_t v;     /* O_IMM value, O_CONST offset, O_SR id, O_ADDR offset */
} opnd;

enum {
  I_GEN,  /* writes nd registers from dst: unknown */
  I_MOV,  /* dst = s0 */
  I_IMAD, /* dst = s0 * s1 + s2 (32 bits) */
  I_WIDE, /* dst pair = s0 * s1 (32 x 32 to 64 bits) + s2 (64 bits) */
  I_ADD,  /* dst = s0 + s1 + s2 (32 bits) */
  I_LEA,  /* dst = (s0 << s2) + s1 */
  I_SHL,  /* dst = s0 << s1 */
  I_SHR,  /* dst = s2 >> s1 (SHF.R.{S,U}32.HI d, RZ, s1, s2) */
  I_MNMX, /* dst = min (cmp 0) or max (cmp 1) of s0, s1 */
  I_SEL,  /* dst = s0 or s1 */
  I_S2R,  /* dst = special register s0 */
  I_LDC,  /* dst (pair if nd 2) = bank 0 at s0 */
  I_SETP, /* pdst = s0 cmp s1 */
  I_EXIT,
  I_BRA,
  I_MEM,  /* access at s0 (O_ADDR), width; data registers s1.. */
  I_FAIL, /* what the analysis cannot follow */
  I_CALL, /* a leaf subroutine: writes the registers of call */
  I_ESC,  /* data s0.. stored where the analysis does not follow it
             (shared or local memory): the pointers in it escape; a load
             from local memory writes nd unknown registers from dst */
  I_LEA_LO, /* dst = low half of (s0 << s2) + s1 (64 bits), carry to pdst */
  I_LEA_HI, /* dst = its high half: s0, s1 (s1's high), s2 (s0's high, or
               none: .SX32), shift, carry */
  I_NOP,
  I_ADD_LO, /* dst = low half of s0 + s1 (one of them 64 bits), carry to
               pdst */
  I_ADD_HI, /* dst = its high half: s0 + s1 + carry pdst */
  I_SHF_HI, /* dst = high half of the pair s2:s0 shifted left by s1 */
  I_IMADX,  /* dst = s0 * s1 + s2 + carry pdst (IMAD.X) */
  I_SETPX,  /* pdst = (s0 == s1, the high halves) && pred chain (the low
               halves' comparison): a 64-bit comparison's second half */
  I_NUM,  /* writes nd registers from dst: a floating-point number (or an
             integer made from one), never an address: unknown, from
             nothing */
};
enum { C_LT, C_LE, C_GT, C_GE, C_EQ, C_NE, C_NONE };

typedef struct {
  uint8_t op, guard, gnot, nd, uns, cmp, width, nsrc;
  int16_t dst, pdst;
  uint16_t kill;   /* predicates it writes (their facts are lost) */
  int32_t target;  /* I_BRA: the label index, then the block index */
  uint8_t cond;    /* I_BRA: may fall through; I_SETP: combined by OR */
  uint8_t *call;   /* I_CALL: the registers the subroutine writes */
  uint8_t chain;   /* I_SETP: the predicate it is combined with, or 0xff */
  opnd s[MAXSRC];
} ins;

typedef struct {
  uint32_t first, last;
  int32_t next[2]; /* fall-through, branch target */
} block;

struct kkr_bounds_prog {
  ins *code;
  block *blocks;
  uint32_t ncode, nblocks, nregs; /* nregs: slots */
  int16_t slot[NREGS];
  int16_t reg_of[NREGS];            /* the register in each slot */
  uint32_t base, size; /* the parameters in bank 0 */
};

/* A state holds only the registers the code uses (and the three after
 * each: the halves of pairs, the rest of quads): slot[r] is r's place. */
typedef struct {
  uint8_t used[NREGS];
} regmap;

static int reg_token(const char *s, const char **end, int *pred) {
  int u = 0;
  *pred = 0;
  if (s[0] == 'U' && (s[1] == 'R' || s[1] == 'P')) {
    u = 1;
    s++;
  }
  if (s[0] == 'R' && s[1] == 'Z') {
    *end = s + 2;
    return ZERO;
  }
  if (s[0] == 'P' && s[1] == 'T') {
    *end = s + 2;
    *pred = 1;
    return 7 + 8 * u;
  }
  if ((s[0] != 'R' && s[0] != 'P') || !isdigit((unsigned char)s[1]))
    return -2;
  char *e;
  long n = strtol(s + 1, &e, 10);
  *end = e;
  if (s[0] == 'P') {
    *pred = 1;
    return n < 7 ? (int)n + 8 * u : -2;
  }
  return n < 256 ? (int)n + 256 * u : -2;
}

static int16_t dense(regmap *m, int r) {
  if (r == ZERO)
    return ZERO;
  for (int k = 0; k < 4 && (r & 255) + k < 256; k++)
    m->used[r + k] = 1;
  return (int16_t)r;
}

/* Skips ".reuse" and similar suffixes of a register; *wide for ".64". */
static const char *reg_suffix(const char *e, uint8_t *wide) {
  while (*e == '.') {
    if (!strncmp(e, ".64", 3))
      *wide = 1;
    e++;
    while (isalnum((unsigned char)*e))
      e++;
  }
  return e;
}

/* An address "[R2.64+0x10]" (or desc[UR4][R2.64+0x10], or anything else
 * inside the brackets). */
static void parse_addr(const char *s, size_t n, opnd *o, regmap *m) {
  o->kind = O_ADDR;
  o->reg = o->reg2 = ZERO;
  o->v = 0;
  o->exact = 1;
  const char *end = s + n;
  int nregs = 0;
  for (const char *p = s; p < end;) {
    if (*p == 'R' || (*p == 'U' && p[1] == 'R')) {
      const char *e;
      int pr;
      int r = reg_token(p, &e, &pr);
      if (r == -2 || pr) {
        o->exact = 0;
        p++;
        continue;
      }
      uint8_t wide = 0;
      e = reg_suffix(e, &wide);
      if (r != ZERO) {
        if (nregs == 0) {
          o->reg = dense(m, r);
          if (!wide || r >= 256)
            o->exact = 0;
        } else {
          o->reg2 = dense(m, r);
          o->exact = 0;
        }
        nregs++;
      }
      p = e;
    } else if (*p == '0' && p[1] == 'x') {
      char *e;
      int64_t v = (int64_t)strtoull(p, &e, 16);
      o->v += p > s && p[-1] == '-' ? -v : v;
      p = e;
    } else if (*p == '+' || *p == '-' || *p == ' ') {
      p++;
    } else {
      o->exact = 0;
      p++;
    }
  }
  if (nregs == 0)
    o->exact = 0;
}

static void parse_opnd(const char *s, size_t n, opnd *o, regmap *m) {
  memset(o, 0, sizeof *o);
  o->reg = o->reg2 = ZERO;
  while (n && *s == ' ')
    s++, n--;
  while (n && s[n - 1] == ' ')
    n--;
  char buf[128];
  snprintf(buf, sizeof buf, "%.*s", (int)(n < 127 ? n : 127), s);
  char *p = buf;
  if (*p == '-') {
    o->neg = 1;
    p++;
  }
  if (*p == '~' || *p == '!' || *p == '|') {
    o->inv = 1;
    p++;
  }
  const char *br = strchr(p, '[');
  if (!strncmp(p, "c[0x0][", 7)) {
    const char *q = p + 7;
    o->kind = O_CONST;
    if (!strncmp(q, "RZ]", 3) || !strncmp(q, "URZ]", 4))
      o->v = 0;
    else if (q[0] == '0' && q[1] == 'x')
      o->v = (int64_t)strtoull(q, NULL, 16);
    else
      o->kind = O_OTHER; /* a computed place: the build gives up */
    return;
  }
  if (!strncmp(p, "c[", 2)) {
    o->kind = O_OTHER;
    return;
  }
  if (br) {
    /* desc[UR4][R2.64]: the second bracket is the address. */
    const char *b = br;
    if (!strncmp(p, "desc[", 5)) {
      const char *b2 = strchr(br + 1, '[');
      if (b2)
        b = b2;
    }
    const char *rb = strchr(b, ']');
    parse_addr(b + 1, rb ? (size_t)(rb - b - 1) : strlen(b + 1), o, m);
    return;
  }
  if (!strncmp(p, "SR_", 3) || !strncmp(p, "SRZ", 3)) {
    o->kind = O_SR;
    o->v = SR_OTHER;
    if (!strncmp(p, "SR_TID.", 7) && p[7] >= 'X' && p[7] <= 'Z')
      o->v = SR_TID + (p[7] - 'X');
    else if (!strncmp(p, "SR_CTAID.", 9) && p[9] >= 'X' && p[9] <= 'Z')
      o->v = SR_CTAID + (p[9] - 'X');
    else if (!strcmp(p, "SR_LANEID"))
      o->v = SR_LANE;
    return;
  }
  if (p[0] == '0' && p[1] == 'x') {
    char *e;
    o->kind = O_IMM;
    o->v = (int64_t)strtoull(p, &e, 16);
    if (*e)
      o->kind = O_OTHER;
    if (o->neg)
      o->v = -o->v, o->neg = 0;
    return;
  }
  const char *e;
  int pr;
  int r = reg_token(p, &e, &pr);
  if (r != -2) {
    if (pr) {
      o->kind = O_PRED;
      o->reg = (int16_t)r;
      o->pnot = o->inv;
      o->inv = 0;
      return;
    }
    e = reg_suffix(e, &o->wide);
    o->kind = *e == 0 || *e == '|' ? O_REG : O_OTHER;
    if (*e == '|')
      o->inv = 1;
    o->reg = dense(m, r);
    o->reg2 = o->reg;
    return;
  }
  if (isdigit((unsigned char)*p)) {
    char *end;
    long long v = strtoll(p, &end, 10);
    o->kind = *end ? O_OTHER : O_IMM;
    o->v = o->neg ? -v : v;
    o->neg = 0;
    return;
  }
  o->kind = O_OTHER; /* floats, labels, barriers... */
}

static int starts(const char *s, const char *p) {
  return !strncmp(s, p, strlen(p));
}

static uint8_t access_width(const char *opc) {
  if (strstr(opc, "256"))
    return 32;
  if (strstr(opc, "128"))
    return 16;
  if (strstr(opc, "64"))
    return 8;
  if (strstr(opc, ".U8") || strstr(opc, ".S8"))
    return 1;
  if (strstr(opc, ".U16") || strstr(opc, ".S16"))
    return 2;
  return 4;
}

static uint8_t compare(const char *opc) {
  static const char *names[] = {".LT.", ".LE.", ".GT.", ".GE.", ".EQ.", ".NE."};
  for (int i = 0; i < 6; i++)
    if (strstr(opc, names[i]))
      return (uint8_t)i;
  return C_NONE;
}

/* The predicate an instruction is guarded by ("!P0"), if any. */
static void parse_guard(const char *pred, ins *in, regmap *m) {
  in->guard = 0xff;
  if (!pred[0])
    return;
  opnd g;
  parse_opnd(pred, strlen(pred), &g, m);
  if (g.kind == O_PRED) {
    in->guard = (uint8_t)g.reg;
    in->gnot = g.pnot;
  }
}

/* Matrix instructions (HMMA, HGMMA...: many registers), not HFMA2.MMA. */
static int mma(const char *opc) {
  size_t n = strcspn(opc, ".");
  return n >= 3 && !strncmp(opc + n - 3, "MMA", 3);
}

/* One instruction's text (without its predicate) as an ins. */
static void decode(const char *text, const char *pred, ins *in, regmap *m,
                   uint32_t base, uint32_t size) {
  memset(in, 0, sizeof *in);
  in->guard = 0xff;
  in->dst = in->pdst = ZERO;
  in->target = -1;
  parse_guard(pred, in, m);
  const char *sp = strchr(text, ' ');
  char opc[64];
  snprintf(opc, sizeof opc, "%.*s", (int)(sp ? sp - text : (long)strlen(text)),
           text);
  /* Operands, split at top-level commas. */
  opnd ops[8];
  int nops = 0;
  const char *a = sp ? sp + 1 : "";
  while (*a && nops < 8) {
    int depth = 0;
    const char *c = a;
    while (*c && !(*c == ',' && depth == 0)) {
      if (*c == '[' || *c == '(')
        depth++;
      else if (*c == ']' || *c == ')')
        depth--;
      c++;
    }
    parse_opnd(a, (size_t)(c - a), &ops[nops++], m);
    a = *c ? c + 1 : c;
  }
  for (int i = 0; i < nops; i++) {
    if (ops[i].kind == O_CONST && (ops[i].v >= (int64_t)base + size ||
                                   (ops[i].v >= 0x18 && ops[i].v < (int64_t)base)))
      ops[i].kind = O_OTHER; /* not the geometry nor a parameter */
    if (ops[i].kind == O_PRED && i < 2 && !starts(opc, "BRA"))
      in->kill |= (uint16_t)(1u << ops[i].reg);
  }
  const char *o = opc[0] == 'U' && strcmp(opc, "UMOV") && !starts(opc, "UBLK") &&
                          !starts(opc, "UTMA")
                      ? opc + 1 /* uniform forms: the same */
                      : opc;
  if (!strcmp(opc, "UMOV"))
    o = "MOV";
  int store = starts(o, "STG") || starts(o, "ST.") || !strcmp(o, "ST") ||
              starts(o, "RED") || starts(o, "ATOMG") ||
              (starts(o, "ATOM") && !starts(o, "ATOMS"));
  int load = starts(o, "LDG") || starts(o, "LD.") || !strcmp(o, "LD") ||
             starts(o, "LDGSTS");
  /* Local memory (a thread's own: spilled registers, arrays indexed at
   * run time, sinf's argument reduction): a store is where the pointers in
   * its data escape (they may come back from a load that the analysis does
   * not relate to the store); a load gives unknown data, from nothing (a
   * pointer in it escaped at its store already). */
  if (starts(o, "STL") || starts(o, "LDL")) {
    in->op = I_ESC;
    in->width = access_width(o);
    int after = 0;
    for (int i = 0; i < nops; i++) {
      if (ops[i].kind == O_ADDR)
        after = 1;
      else if (o[0] == 'S' && after && ops[i].kind == O_REG &&
               ops[i].reg != ZERO && in->nsrc < MAXSRC)
        in->s[in->nsrc++] = ops[i];
    }
    if (o[0] == 'L' && nops && ops[0].kind == O_REG && ops[0].reg != ZERO) {
      in->dst = ops[0].reg;
      in->nd = in->width > 4 ? in->width / 4 : 1;
    }
    return;
  }
  /* What cannot be followed. */
  if (starts(o, "CALL") || starts(o, "RET") || starts(o, "BRX") ||
      starts(o, "JMX") ||
      starts(o, "BLKCP") || starts(o, "TMA") || starts(o, "BLKRED") ||
      starts(o, "SUST") || starts(o, "SURED") || starts(o, "SUATOM") ||
      mma(o) || starts(o, "LDSM") || starts(o, "STSM")) {
    in->op = I_FAIL;
    return;
  }
  for (int i = 0; i < nops; i++)
    if (ops[i].kind == O_OTHER) {
      /* c[0x0][R3+...]: parameters at a computed place. */
      const char *t = strstr(text, "c[0x0][");
      for (; t; t = strstr(t + 1, "c[0x0][")) {
        const char *q = t + 7;
        if (*q == 'U')
          q++;
        if (*q == 'R' && isdigit((unsigned char)q[1])) {
          in->op = I_FAIL;
          return;
        }
      }
    }
  if (store || load) {
    int ai = -1;
    for (int i = 0; i < nops; i++)
      if (ops[i].kind == O_ADDR) {
        ai = i;
        if (starts(o, "LDGSTS") && i + 1 < nops && ops[i + 1].kind == O_ADDR)
          continue; /* its global source is the second */
        break;
      }
    if (ai < 0) {
      in->op = I_FAIL;
      return;
    }
    in->op = I_MEM;
    in->width = access_width(o);
    in->s[0] = ops[ai];
    in->nsrc = 1;
    /* The data stored: registers after the address (a pair or more for
     * wide stores: the next ones too). */
    if (store)
      for (int i = ai + 1; i < nops && in->nsrc < MAXSRC; i++)
        if (ops[i].kind == O_REG && ops[i].reg != ZERO)
          in->s[in->nsrc++] = ops[i];
    /* What a load or an atomic writes: unknown data. */
    int d = -1;
    for (int i = 0; i < ai; i++)
      if (ops[i].kind == O_REG) {
        d = i;
        break;
      }
    if (d >= 0 && ops[d].reg != ZERO) {
      in->dst = ops[d].reg;
      in->nd = in->width > 4 ? in->width / 4 : 1;
    }
    in->uns = (uint8_t)store; /* (a store: its data escapes) */
    return;
  }
  if (starts(o, "STS") || starts(o, "ATOMS")) {
    in->op = I_ESC;
    int after = 0;
    for (int i = 0; i < nops; i++) {
      if (ops[i].kind == O_ADDR)
        after = 1;
      else if (after && ops[i].kind == O_REG && ops[i].reg != ZERO &&
               in->nsrc < MAXSRC)
        in->s[in->nsrc++] = ops[i];
    }
    in->width = access_width(o);
    if (starts(o, "ATOMS") && nops && ops[0].kind == O_REG &&
        ops[0].reg != ZERO) { /* its result: unknown data */
      in->dst = ops[0].reg;
      in->nd = 1;
    }
    return;
  }
  if (starts(o, "EXIT")) {
    in->op = I_EXIT;
    return;
  }
  if (starts(o, "BRA")) {
    in->op = I_BRA;
    in->cond = in->guard != 0xff || (sp && strncmp(sp + 1, "`(", 2));
    return; /* (its target: resolved by the caller) */
  }
  if (starts(o, "ISETP") && strstr(o, ".EX") && strstr(o, ".AND") &&
      nops == 6 && ops[0].kind == O_PRED && ops[1].kind == O_PRED &&
      (ops[1].reg & 7) == 7 && ops[4].kind == O_PRED &&
      (ops[4].reg & 7) == 7 && !ops[4].pnot && ops[5].kind == O_PRED &&
      !ops[5].pnot && (ops[5].reg & 7) != 7) {
    /* Pd = a:lo cmp b:lo over 64 bits, the low halves compared before
     * into Pc: when the high halves are equal, Pd is Pc. */
    in->op = I_SETPX;
    in->pdst = ops[0].reg;
    in->chain = (uint8_t)ops[5].reg;
    in->s[0] = ops[2];
    in->s[1] = ops[3];
    in->nsrc = 2;
    in->kill = (uint16_t)(1u << ops[0].reg);
    return;
  }
  if (starts(o, "ISETP") && nops >= 5 && !strstr(o, ".EX") &&
      (strstr(o, ".AND") || strstr(o, ".OR")) && ops[0].kind == O_PRED &&
      ops[1].kind == O_PRED && ops[4].kind == O_PRED &&
      (ops[1].reg & 7) == 7 && !ops[4].pnot) {
    /* Pd = a cmp b, combined with Pq (PT: alone) by AND or OR. */
    in->op = I_SETP;
    in->pdst = ops[0].reg;
    in->chain = (uint8_t)((ops[4].reg & 7) == 7 ? 0xff : ops[4].reg);
    in->cond = strstr(o, ".OR") != NULL;
    in->cmp = compare(o);
    in->uns = strstr(o, ".U32") != NULL;
    in->s[0] = ops[2];
    in->s[1] = ops[3];
    in->nsrc = 2;
    in->kill = (uint16_t)(1u << ops[0].reg);
    if (in->cmp == C_NONE)
      in->op = I_GEN, in->nd = 0;
    return;
  }
  if (strstr(o, "SETP") || starts(o, "PLOP3") || starts(o, "BAR") ||
      starts(o, "BSSY") || starts(o, "BSYNC") || starts(o, "WARPSYNC") ||
      starts(o, "NOP") || starts(o, "MEMBAR") || starts(o, "FENCE") ||
      starts(o, "ERRBAR") || starts(o, "CCTL") || starts(o, "DEPBAR") ||
      starts(o, "YIELD") || starts(o, "BMOV") ||
      starts(o, "ACQBULK") || starts(o, "WARPGROUP") || starts(o, "SYNCS") ||
      starts(o, "ELECT") || starts(o, "ARRIVES") || starts(o, "PREEXIT")) {
    in->op = I_NOP; /* no register written (predicates: kill) */
    for (int i = 0; i < nops; i++)
      if (ops[i].kind == O_PRED && !starts(o, "BAR"))
        in->kill |= (uint16_t)(1u << ops[i].reg);
    return;
  }
  /* The destination: the first register (after a predicate, as in SHFL's
   * "PT, R3"); a second one for carries ("IADD3 R2, P0, ..."). */
  int di = -1;
  for (int i = 0; i < nops && i < 2; i++)
    if (ops[i].kind == O_REG) {
      di = i;
      break;
    }
  if (di < 0 || ops[di].reg == ZERO) {
    in->op = I_NOP;
    return;
  }
  in->dst = ops[di].reg;
  int wide = strstr(o, ".64") || strstr(o, "WIDE") || ops[di].wide ||
             starts(o, "D") || strstr(o, "F64");
  in->nd = strstr(o, "128") || strstr(o, ".4") ? 4 : wide ? 2 : 1;
  in->op = I_GEN;
  int first = di + 1, carry = first < nops && ops[first].kind == O_PRED;
  opnd *s = ops + first;
  int ns = nops - first;
  for (int i = 0; i < ns && i < MAXSRC; i++)
    in->s[i] = s[i];
  in->nsrc = (uint8_t)(ns < MAXSRC ? ns : MAXSRC);
  /* A 64-bit address as two LEAs: "LEA R4, P0, R5, c[0x0][0x210], 0x2;
   * LEA.HI.X R5, R5, c[0x0][0x214], R6, 0x2, P0" (R6: R5's sign). */
  if (!strcmp(o, "LEA") && carry && ns == 4 && s[3].kind == O_IMM) {
    in->op = I_LEA_LO;
    in->pdst = s[0].reg;
    in->s[0] = s[1];
    in->s[1] = s[2];
    in->s[2] = s[3];
    in->nsrc = 3;
    return;
  }
  if ((!strcmp(o, "LEA.HI.X") && ns == 5 && s[3].kind == O_IMM &&
       s[4].kind == O_PRED) ||
      (!strcmp(o, "LEA.HI.X.SX32") && ns == 4 && s[2].kind == O_IMM &&
       s[3].kind == O_PRED)) {
    in->op = I_LEA_HI;
    in->uns = ns == 4; /* (.SX32: the index's high half is its sign) */
    in->pdst = s[ns - 1].reg;
    if (in->uns) {
      in->s[3] = s[2];
      in->s[2].kind = O_NONE;
    }
    return;
  }
  /* A 64-bit sum as two IADD3: "IADD3 R4, P0, R6, c[0x0][0x210], RZ;
   * IADD3.X R5, R7, c[0x0][0x214], RZ, P0, !PT". */
  if (!strcmp(o, "IADD3") && carry && ns == 4 && s[3].kind == O_REG &&
      s[3].reg == ZERO) {
    in->op = I_ADD_LO;
    in->pdst = s[0].reg;
    in->s[0] = s[1];
    in->s[1] = s[2];
    in->nsrc = 2;
    return;
  }
  if (!strcmp(o, "IADD3.X") && ns == 5 && s[2].kind == O_REG &&
      s[2].reg == ZERO && s[3].kind == O_PRED && !s[3].pnot &&
      (s[3].reg & 7) != 7 && s[4].kind == O_PRED && s[4].pnot &&
      (s[4].reg & 7) == 7) {
    in->op = I_ADD_HI;
    in->pdst = s[3].reg;
    in->nsrc = 2;
    return;
  }
  if (!strcmp(o, "IMAD.X") && ns == 4 && s[3].kind == O_PRED &&
      !s[3].pnot && (s[3].reg & 7) != 7) {
    in->op = I_IMADX;
    in->pdst = s[3].reg;
    in->nsrc = 3;
    return;
  }
  if (!strcmp(o, "SHF.L.U64.HI") && ns == 3 && s[1].kind == O_IMM) {
    in->op = I_SHF_HI;
    return;
  }
  if (carry || strstr(o, ".X") || strstr(o, ".CC") ||
      (strstr(o, ".HI") && !starts(o, "SHF.R.")))
    return; /* 64-bit halves: unknown */
  if (!strcmp(o, "MOV")) {
    if (ns >= 1)
      in->op = I_MOV;
  } else if (!strcmp(o, "MOV.U32") || !strcmp(o, "IMAD.MOV.U32") ||
             !strcmp(o, "IMAD.MOV")) {
    if (!strncmp(o, "IMAD", 4)) {
      if (ns == 3 && s[0].reg == ZERO && s[1].reg == ZERO &&
          s[0].kind == O_REG && s[1].kind == O_REG) {
        in->op = I_MOV;
        in->s[0] = s[2];
      }
    } else if (ns >= 1) {
      in->op = I_MOV;
    }
  } else if (!strcmp(o, "IMAD") || !strcmp(o, "IMAD.IADD") ||
             !strcmp(o, "IMAD.U32") || !strcmp(o, "IMAD.SHL.U32") ||
             !strcmp(o, "IMAD.SHL")) {
    if (ns == 3)
      in->op = I_IMAD;
  } else if (!strcmp(o, "IMAD.WIDE") || !strcmp(o, "IMAD.WIDE.U32")) {
    if (ns == 3) {
      in->op = I_WIDE;
      in->uns = strstr(o, ".U32") != NULL;
    }
  } else if (!strcmp(o, "IADD3") || !strcmp(o, "IADD") || !strcmp(o, "VIADD") ||
             !strcmp(o, "IADD32I")) {
    if (ns == 2 || ns == 3)
      in->op = I_ADD;
  } else if (!strcmp(o, "LEA")) {
    if (ns == 3 && s[2].kind == O_IMM)
      in->op = I_LEA;
  } else if (!strcmp(o, "SHF.L.U32") || !strcmp(o, "SHL")) {
    if (ns >= 2 && s[1].kind == O_IMM && (ns == 2 || s[2].reg == ZERO))
      in->op = I_SHL;
  } else if (!strcmp(o, "SHF.R.S32.HI") || !strcmp(o, "SHF.R.U32.HI")) {
    if (ns == 3 && s[0].kind == O_REG && s[0].reg == ZERO &&
        s[1].kind == O_IMM) {
      in->op = I_SHR;
      in->uns = o[5] == 'U';
    }
  } else if (starts(o, "IMNMX") || starts(o, "VIMNMX")) {
    if (ns == 3 && s[2].kind == O_PRED && (s[2].reg & 7) == 7) {
      in->op = I_MNMX;
      in->cmp = s[2].pnot; /* PT: min, !PT: max */
      in->uns = strstr(o, ".U32") != NULL;
    }
  } else if (!strcmp(o, "SEL")) {
    if (ns == 3)
      in->op = I_SEL;
  } else if (!strcmp(o, "S2R") || !strcmp(o, "S2UR") || !strcmp(o, "CS2R") ||
             !strcmp(o, "CS2R.32")) {
    if (ns == 1 && s[0].kind == O_SR)
      in->op = I_S2R;
  } else if (!strcmp(o, "LDC") || !strcmp(o, "LDC.64") || !strcmp(o, "LDC.U8") ||
             !strcmp(o, "LDC.S8") || !strcmp(o, "LDC.U16") ||
             !strcmp(o, "LDC.S16")) {
    if (ns == 1 && s[0].kind == O_CONST && !strchr(o + 3, '8') &&
        !strstr(o, "16"))
      in->op = I_LDC;
  } else if (!strcmp(o, "R2UR")) {
    if (ns == 1)
      in->op = I_MOV;
  }
  /* (MOV R0, R1, 0xf: the mask is all lanes.) */
  if (in->op == I_MOV && ns != 1 &&
      !(ns == 2 && s[1].kind == O_IMM && s[1].v == 0xf) &&
      strncmp(o, "IMAD", 4))
    in->op = I_GEN;
  if (starts(o, "CS2R") && strcmp(o, "CS2R.32"))
    in->nd = 2; /* (a pair) */
  if (starts(o, "R2P"))
    in->kill = 0xffff; /* every predicate */
  /* Floating-point arithmetic: what it computes from a pointer (a
   * subroutine's result that may have read one) is no address. */
  if (in->op == I_GEN && strcmp(o, "FSEL") &&
      ((o[0] == 'F' && strncmp(o, "FLO", 3)) || starts(o, "MUFU") ||
       starts(o, "DADD") || starts(o, "DMUL") || starts(o, "DFMA") ||
       starts(o, "HADD2") || starts(o, "HMUL2") || starts(o, "HFMA2") ||
       starts(o, "I2F") || starts(o, "F2")))
    in->op = I_NUM;
  if (in->dst + in->nd > NREGS)
    in->op = I_FAIL;
}

/* ---- Building ------------------------------------------------------------- */

kkr_bounds_prog *kkr_bounds_build(const char *body, size_t len, uint32_t base,
                                  uint32_t size) {
  kkr_bounds_prog *pg = calloc(1, sizeof *pg);
  regmap *m = malloc(sizeof *m);
  char(*labels)[32] = calloc(MAX_BLOCKS, 32);
  uint32_t *label_at = calloc(MAX_BLOCKS, sizeof *label_at);
  struct {
    uint32_t at;
    char label[32];
  } *bras = calloc(MAX_BLOCKS, sizeof *bras);
  uint32_t nbras = 0;
  ins *code = malloc(MAX_INS * sizeof *code);
  uint8_t *leader = NULL;
  uint32_t nlabels = 0, n = 0;
  int fail = !pg || !m || !labels || !label_at || !bras || !code ||
             size > 512 * 8;
  if (!fail)
    memset(m->used, 0, sizeof m->used);
  const char *p = body, *end = body + len;
  /* Up to the next function. */
  const char *next = memmem(body, len, "//---------------------", 23);
  if (next && next > body)
    end = next;
  while (!fail && p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
    char line[512], text[256], pred[16];
    snprintf(line, sizeof line, "%.*s", (int)(l < 511 ? l : 511), p);
    p += l + 1;
    if (line[0] == '$')
      break; /* the kernel's subroutines (reached by its calls) */
    if (line[0] == '.' && line[1] == 'L' && strchr(line, ':')) {
      if (nlabels == MAX_BLOCKS) {
        fail = 1;
        break;
      }
      snprintf(labels[nlabels], 32, "%.*s", (int)strcspn(line, ":"), line);
      label_at[nlabels++] = n;
      continue;
    }
    if (!kkr_sass_instruction(line, text, sizeof text, pred, sizeof pred))
      continue;
    if (n == MAX_INS || strlen(text) >= sizeof text - 1) {
      fail = 1;
      break;
    }
    ins *in = &code[n++];
    uint8_t *call = NULL;
    if (starts(text, "CALL.REL") && (call = malloc(NREGS)) &&
        kkr_sass_leaf_call(body, (size_t)(end - body), text, call)) {
      memset(in, 0, sizeof *in);
      in->op = I_CALL;
      in->dst = in->pdst = ZERO;
      in->kill = 0xffff;
      in->call = call;
      parse_guard(pred, in, m);
      for (int r = 0; r < NREGS; r++)
        if (call[r])
          m->used[r] = 1;
      continue;
    }
    free(call);
    decode(text, pred, in, m, base, size);
    if (in->op == I_FAIL)
      fail = 1;
    if (in->op == I_BRA) { /* its label, found once all are known */
      const char *q = strstr(text, "(.L");
      if (!q || nbras == MAX_BLOCKS) {
        fail = 1; /* an indirect branch */
        break;
      }
      bras[nbras].at = n - 1;
      snprintf(bras[nbras++].label, 32, "%.*s", (int)strcspn(q + 1, ")"),
               q + 1);
    }
  }
  /* Branch targets. */
  for (uint32_t i = 0; !fail && i < nbras; i++) {
    ins *in = &code[bras[i].at];
    for (uint32_t k = 0; k < nlabels; k++)
      if (!strcmp(labels[k], bras[i].label))
        in->target = (int32_t)k;
    fail = in->target < 0;
  }
  /* Blocks: at each label, after each branch and unguarded exit. */
  if (!fail && n) {
    leader = calloc(n + 1, 1);
    fail = !leader;
  }
  uint32_t nb = 0;
  block *blocks = NULL;
  if (!fail && n) {
    leader[0] = 1;
    for (uint32_t k = 0; k < nlabels; k++)
      leader[label_at[k]] = 1;
    for (uint32_t i = 0; i < n; i++)
      if (code[i].op == I_BRA || (code[i].op == I_EXIT && code[i].guard == 0xff))
        leader[i + 1] = 1;
    for (uint32_t i = 0; i < n; i++)
      nb += leader[i];
    blocks = calloc(nb, sizeof *blocks);
    fail = !blocks || nb > MAX_BLOCKS;
  }
  if (!fail && n) {
    uint32_t b = 0;
    int32_t *block_of = malloc((n + 1) * sizeof *block_of);
    if (!block_of)
      fail = 1;
    for (uint32_t i = 0; !fail && i < n; i++) {
      if (leader[i]) {
        if (b)
          blocks[b - 1].last = i;
        blocks[b++].first = i;
      }
      block_of[i] = (int32_t)b - 1;
    }
    if (!fail) {
      blocks[nb - 1].last = n;
      block_of[n] = -1;
      for (uint32_t k = 0; k < nb; k++) {
        const ins *last = &code[blocks[k].last - 1];
        int ends = (last->op == I_EXIT && last->guard == 0xff) ||
                   (last->op == I_BRA && !last->cond);
        blocks[k].next[0] = ends || k + 1 >= nb ? -1 : (int32_t)k + 1;
        blocks[k].next[1] = -1;
        if (last->op == I_BRA)
          blocks[k].next[1] = block_of[label_at[last->target]];
        if (last->op == I_BRA && blocks[k].next[1] < 0)
          fail = 1;
      }
    }
    free(block_of);
  }
  free(leader);
  free(labels);
  free(label_at);
  free(bras);
  if (fail || !n) {
    for (uint32_t i = 0; code && i < n; i++)
      if (code[i].op == I_CALL)
        free(code[i].call);
    free(code);
    free(blocks);
    free(m);
    free(pg);
    return NULL;
  }
  for (uint32_t i = 0; i < n; i++)
    for (int k = 0; k < code[i].nd && code[i].dst != ZERO; k++)
      m->used[code[i].dst + k] = 1;
  pg->nregs = 0;
  for (int r = 0; r < NREGS; r++) {
    pg->slot[r] = m->used[r] ? (int16_t)pg->nregs : -1;
    if (m->used[r])
      pg->reg_of[pg->nregs++] = (int16_t)r;
  }
  ins *shrunk = realloc(code, n * sizeof *code);
  pg->code = shrunk ? shrunk : code;
  pg->ncode = n;
  pg->blocks = blocks;
  pg->nblocks = nb;
  pg->base = base;
  pg->size = size;
  free(m);
  return pg;
}

void kkr_bounds_free(kkr_bounds_prog *p) {
  if (!p)
    return;
  for (uint32_t i = 0; i < p->ncode; i++)
    if (p->code[i].op == I_CALL)
      free(p->code[i].call);
  free(p->code);
  free(p->blocks);
  free(p);
}


/* ---- Values ----------------------------------------------------------------- */

enum { V_TOP, V_I32, V_I64, V_PTR, V_HI };
typedef struct {
  uint8_t kind;
  uint8_t w;      /* V_PTR: the parameter word */
  uint8_t exact;  /* V_PTR, V_HI of a parameter word as loaded: bits */
  uint64_t bits;
  int64_t lo, hi; /* V_I32: the value mod 2^32 lies in [lo, hi] (hi - lo <
                     2^32, lo in [-2^31, 2^31)); V_I64: the value; V_PTR:
                     the offset from the pointer */
  uint64_t taint;
} val;

/* What a predicate says: comparisons of registers with values, all true
 * when it holds (or, when it is an OR chain, all false when it does not). */
#define FACT_MAX 4
typedef struct {
  uint8_t cmp, uns;
  int16_t a;
  val b;
} compare_t;
typedef struct {
  uint8_t ok, n, or_chain;
  compare_t c[FACT_MAX];
} fact;

/* The low half of a 64-bit LEA or IADD3, waiting for its high half (by
 * the carry predicate). */
typedef struct {
  uint8_t ok;
  uint8_t add;     /* an IADD3's (no shift, no index register kept) */
  uint8_t cknown, cval; /* the carry itself, when the sum's range says */
  int16_t dst, a;
  val av, base;
  int64_t sh;
  opnd b;
} carry_t;

typedef struct {
  val *r;
  fact f[NPRED];
  carry_t carry[NPRED];
} state;

#define TWO32 ((int64_t)1 << 32)
#define TWO31 ((int64_t)1 << 31)

static val top(uint64_t taint) {
  val v = {.kind = V_TOP, .taint = taint};
  return v;
}

static val i32(__int128 lo, __int128 hi, uint64_t taint) {
  if (hi - lo >= TWO32 || lo > hi)
    return top(taint);
  /* lo into [-2^31, 2^31) */
  __int128 k = lo >= 0 ? (lo + TWO31) / TWO32 : -((-lo + TWO31 - 1) / TWO32);
  lo -= k * TWO32;
  hi -= k * TWO32;
  val v = {.kind = V_I32, .lo = (int64_t)lo, .hi = (int64_t)hi, .taint = taint};
  return v;
}

/* The value of a 32-bit register as a signed or unsigned integer. */
static int as32(const val *v, int uns, int64_t *lo, int64_t *hi) {
  if (v->kind != V_I32)
    return 0;
  *lo = v->lo;
  *hi = v->hi;
  if (uns) {
    if (*hi < 0)
      *lo += TWO32, *hi += TWO32;
    return *lo >= 0 && *hi < TWO32;
  }
  return *hi < TWO31;
}

static int same(const val *a, const val *b) {
  return a->kind == b->kind && a->w == b->w && a->lo == b->lo &&
         a->hi == b->hi && a->taint == b->taint && a->exact == b->exact &&
         a->bits == b->bits;
}

static val join(const val *a, const val *b) {
  uint64_t t = a->taint | b->taint;
  if (a->kind != b->kind || (a->kind == V_PTR && a->w != b->w) ||
      a->kind == V_TOP)
    return top(t);
  if (a->kind == V_HI) {
    val v = *a;
    v.taint = t;
    v.exact = a->exact && b->exact && a->bits == b->bits;
    return a->lo == b->lo ? v : top(t);
  }
  if (a->kind == V_I32) {
    int64_t al, ah, bl, bh;
    if (as32(a, 0, &al, &ah) && as32(b, 0, &bl, &bh))
      return i32(al < bl ? al : bl, ah > bh ? ah : bh, t);
    if (as32(a, 1, &al, &ah) && as32(b, 1, &bl, &bh))
      return i32(al < bl ? al : bl, ah > bh ? ah : bh, t);
    return top(t);
  }
  val v = *a;
  v.lo = a->lo < b->lo ? a->lo : b->lo;
  v.hi = a->hi > b->hi ? a->hi : b->hi;
  v.taint = t;
  v.exact = a->exact && b->exact && a->bits == b->bits && a->lo == b->lo &&
            a->hi == b->hi;
  return v;
}

/* ---- Evaluation ------------------------------------------------------------- */

#define MAX_TH 16
typedef struct {
  const kkr_bounds_prog *p;
  const unsigned *dims;
  const unsigned char *params;
  uint32_t nbytes;
  kkr_bounds_word *out;
  uint32_t nwords;
  /* Where widening stops: the bounds that comparisons test ("i < n":
   * n - 1), so that a loop's index widens to its guard, which the loop's
   * exit test then keeps. */
  int64_t th[MAX_TH];
  uint32_t nth;
  uint64_t used; /* the parameter words whose values the bounds used */
} ctx;

static void add_threshold(ctx *c, const val *b) {
  if (b->kind != V_I32 || b->lo != b->hi)
    return;
  int64_t v[2] = {b->lo - 1, b->lo};
  for (int k = 0; k < 2; k++) {
    uint32_t i = 0;
    while (i < c->nth && c->th[i] != v[k])
      i++;
    if (i == c->nth && c->nth < MAX_TH)
      c->th[c->nth++] = v[k];
  }
}

static uint64_t param_taint(const ctx *c, int64_t off) {
  if (off < (int64_t)c->p->base)
    return 0;
  uint64_t w = (uint64_t)(off - c->p->base) / 8;
  return w < 64 ? 1ull << w : 0;
}

static int64_t param_bits(const ctx *c, int64_t off, int bytes, int *ok) {
  int64_t at = off - c->p->base;
  uint64_t v = 0;
  *ok = at >= 0 && at + bytes <= (int64_t)c->nbytes;
  if (*ok)
    memcpy(&v, c->params + at, (size_t)bytes);
  return bytes == 4 ? (int64_t)(uint32_t)v : (int64_t)v;
}

/* What keeps growing at a loop's head grows to the next bound a comparison
 * tests, else to the end of its type. */
/* The least bound tested at or above x, else limit; the greatest at or
 * below x, else limit. */
static int64_t bound_above(const ctx *c, int64_t x, int64_t limit) {
  for (uint32_t k = 0; k < c->nth; k++)
    if (c->th[k] >= x && c->th[k] < limit)
      limit = c->th[k];
  return limit;
}
static int64_t bound_below(const ctx *c, int64_t x, int64_t limit) {
  for (uint32_t k = 0; k < c->nth; k++)
    if (c->th[k] <= x && c->th[k] > limit)
      limit = c->th[k];
  return limit;
}

static val widen(const ctx *c, const val *old, const val *nw) {
  if (nw->kind != old->kind || nw->kind == V_TOP || nw->kind == V_HI)
    return *nw;
  val v = *nw;
  if (nw->kind == V_I32) {
    int64_t ol, oh, nl, nh;
    if (!as32(old, 0, &ol, &oh) || !as32(nw, 0, &nl, &nh))
      return top(nw->taint);
    return i32(nl < ol ? bound_below(c, nl, -TWO31) : nl,
               nh > oh ? bound_above(c, nh, TWO31 - 1) : nh, nw->taint);
  }
  /* A 64-bit integer up to a bound tested if any; an offset unbounded. */
  int i64 = nw->kind == V_I64;
  if (nw->hi > old->hi)
    v.hi = i64 ? bound_above(c, nw->hi, BIG) : BIG;
  if (nw->lo < old->lo)
    v.lo = i64 ? bound_below(c, nw->lo, -BIG) : -BIG;
  return v;
}

/* Register r's value in a state. */
#define REG(c, s, x) ((s)->r[(c)->p->slot[(x)]])

/* A 32-bit operand's value. */
static val get32(const ctx *c, const state *s, const opnd *o) {
  val v;
  switch (o->kind) {
  case O_REG:
    if (o->reg == ZERO)
      v = i32(0, 0, 0);
    else
      v = REG(c, s, o->reg);
    /* (A half of a 64-bit parameter as loaded: its bits.) */
    if (v.exact && v.kind == V_PTR && v.lo == 0 && v.hi == 0) {
      ((ctx *)c)->used |= v.taint;
      v = i32((uint32_t)v.bits, (uint32_t)v.bits, v.taint);
    } else if (v.exact && v.kind == V_HI) {
      ((ctx *)c)->used |= v.taint;
      v = i32((uint32_t)(v.bits >> 32), (uint32_t)(v.bits >> 32), v.taint);
    } else if (v.kind == V_I64) { /* its low half */
      v = i32(v.lo, v.hi, v.taint);
    } else if (v.kind == V_HI) { /* the high half of a 64-bit integer */
      const val *low = &REG(c, s, v.lo);
      v = low->kind == V_I64 && (low->lo >> 32) == (low->hi >> 32)
              ? i32(low->lo >> 32, low->lo >> 32, v.taint)
              : top(v.taint);
    }
    if (v.kind != V_I32)
      v = top(v.taint);
    break;
  case O_IMM:
    v = i32(o->v, o->v, 0);
    break;
  case O_CONST:
    if (o->v < 0x18) { /* the block's and the grid's sizes */
      if (o->v % 4)
        return top(0);
      unsigned d = c->dims[o->v < 0xc ? 3 + o->v / 4 : (o->v - 0xc) / 4];
      v = i32(d, d, 0);
    } else {
      int ok;
      int64_t x = param_bits(c, o->v, 4, &ok);
      ((ctx *)c)->used |= param_taint(c, o->v);
      v = ok ? i32(x, x, param_taint(c, o->v)) : top(param_taint(c, o->v));
    }
    break;
  default:
    return top(0);
  }
  if (o->inv)
    return top(v.taint);
  if (o->neg) {
    int64_t lo, hi;
    if (!as32(&v, 0, &lo, &hi))
      return top(v.taint);
    return i32(-(__int128)hi, -(__int128)lo, v.taint);
  }
  return v;
}

/* The 64-bit integer whose halves are lo and hi: known when hi is one
 * value (lo then unsigned); else unknown. */
static val pair64(const val *lo, const val *hi, uint64_t taint) {
  int64_t l, h;
  if (hi->kind != V_I32 || hi->lo != hi->hi || !as32(lo, 1, &l, &h))
    return top(taint);
  val v = {.kind = V_I64, .lo = hi->lo * TWO32 + l, .hi = hi->lo * TWO32 + h,
           .taint = taint};
  return v;
}

/* A 64-bit operand's value (a register pair, or the parameter bank). */
static val get64(const ctx *c, const state *s, const opnd *o) {
  if (o->kind == O_REG) {
    if (o->reg == ZERO) {
      val v = {.kind = V_I64};
      return v;
    }
    val v = REG(c, s, o->reg);
    if (!o->inv && !o->neg && (v.kind == V_I64 || v.kind == V_PTR))
      return v; /* (put keeps only whole pairs) */
    /* Two 32-bit integers, the high half known ("MOV R3, RZ" after the
     * index in R2). */
    if (!o->inv && !o->neg && v.kind == V_I32 && o->reg % 256 < 255 &&
        c->p->slot[o->reg + 1] >= 0) {
      opnd ho = *o;
      ho.reg = (int16_t)(o->reg + 1);
      val h = get32(c, s, &ho);
      return pair64(&v, &h, v.taint | h.taint);
    }
    return top(v.taint);
  }
  if (o->kind == O_CONST && !o->inv && !o->neg &&
      o->v >= (int64_t)c->p->base && (o->v - c->p->base) % 8 == 0 &&
      (o->v - c->p->base) / 8 < 64) {
    int ok;
    uint64_t bits = (uint64_t)param_bits(c, o->v, 8, &ok);
    val v = {.kind = V_PTR, .w = (uint8_t)((o->v - c->p->base) / 8),
             .exact = (uint8_t)ok, .bits = bits, .taint = param_taint(c, o->v)};
    return v;
  }
  if (o->kind == O_IMM) {
    val v = {.kind = V_I64, .lo = o->v, .hi = o->v};
    return v;
  }
  return top(o->kind == O_CONST ? param_taint(c, o->v) : 0);
}

/* Writes v to register r: what facts said of r is lost; a predicated write
 * may not happen.  A 64-bit value in r - 1 (its high half in r: a V_HI
 * marker naming r - 1) is unknown once r holds anything else, so that a
 * pair is whole wherever its low register holds a 64-bit value. */
static void put(const ctx *c, state *s, int r, val v, int predicated) {
  if (r == ZERO || r >= NREGS || c->p->slot[r] < 0)
    return;
  for (int k = 0; k < NPRED; k++) {
    for (int j = 0; s->f[k].ok && j < s->f[k].n; j++)
      if (s->f[k].c[j].a == r)
        s->f[k].ok = 0;
    if (s->carry[k].ok && (s->carry[k].a == r || s->carry[k].dst == r ||
                           (s->carry[k].b.kind == O_REG &&
                            (s->carry[k].b.reg == r || s->carry[k].b.reg + 1 == r))))
      s->carry[k].ok = 0;
  }
  if (predicated)
    v = join(&REG(c, s, r), &v);
  REG(c, s, r) = v;
  if (r > 0 && c->p->slot[r - 1] >= 0 && !(v.kind == V_HI && v.lo == r - 1)) {
    val *low = &REG(c, s, r - 1);
    if (low->kind == V_PTR || low->kind == V_I64)
      *low = top(low->taint);
  }
}

/* A 64-bit value to the pair r, r + 1. */
static void put64(const ctx *c, state *s, int r, val v, int predicated) {
  if (v.kind != V_PTR && v.kind != V_I64) {
    put(c, s, r, top(v.taint), predicated);
    put(c, s, r + 1, top(v.taint), predicated);
    return;
  }
  val h = {.kind = V_HI, .exact = v.exact, .bits = v.bits, .lo = r, .hi = r,
           .taint = v.taint};
  put(c, s, r, v, predicated);
  put(c, s, r + 1, h, predicated);
}

static void record(ctx *c, int w, int64_t lo, int64_t hi) {
  if (w < 0 || (uint32_t)w >= c->nwords)
    return;
  kkr_bounds_word *o = &c->out[w];
  if (o->state == KKR_BOUNDS_UNKNOWN)
    return;
  if (lo <= -BIG || hi >= BIG) {
    o->state = KKR_BOUNDS_UNKNOWN;
    return;
  }
  if (o->state == KKR_BOUNDS_NONE) {
    o->state = KKR_BOUNDS_RANGE;
    o->lo = lo;
    o->hi = hi;
    return;
  }
  if (lo < o->lo)
    o->lo = lo;
  if (hi > o->hi)
    o->hi = hi;
}

static void unbounded(ctx *c, uint64_t taint) {
  for (uint32_t w = 0; w < c->nwords && w < 64; w++)
    if (taint >> w & 1)
      c->out[w].state = KKR_BOUNDS_UNKNOWN;
}

/* Narrows what a comparison says of its register when it is (truth)
 * true. */
static void refine1(const ctx *c, state *s, const compare_t *f, int truth) {
  val *a = &REG(c, s, f->a);
  int64_t lo, hi, bl, bh;
  /* A 64-bit integer whose high half is known: its low half, unsigned
   * (the first half of a 64-bit comparison), decides. */
  int64_t high = 0;
  int wide = a->kind == V_I64 && f->uns && (a->lo >> 32) == (a->hi >> 32);
  if (wide) {
    high = (a->lo >> 32) * TWO32;
    lo = a->lo - high;
    hi = a->hi - high;
    if (!as32(&f->b, 1, &bl, &bh))
      return;
  } else if (!as32(a, f->uns, &lo, &hi) || !as32(&f->b, f->uns, &bl, &bh)) {
    return;
  }
  int cmp = f->cmp;
  if (!truth) {
    static const uint8_t neg[] = {C_GE, C_GT, C_LE, C_LT, C_NE, C_EQ};
    cmp = neg[cmp];
  }
  switch (cmp) {
  case C_LT:
    if (bh - 1 < hi)
      hi = bh - 1;
    break;
  case C_LE:
    if (bh < hi)
      hi = bh;
    break;
  case C_GT:
    if (bl + 1 > lo)
      lo = bl + 1;
    break;
  case C_GE:
    if (bl > lo)
      lo = bl;
    break;
  case C_EQ:
    if (bl > lo)
      lo = bl;
    if (bh < hi)
      hi = bh;
    break;
  default:
    return;
  }
  if (lo > hi) /* (the path is not taken: keep the value) */
    return;
  if (wide) {
    a->lo = high + lo;
    a->hi = high + hi;
    return;
  }
  *a = i32(lo, hi, a->taint);
}

/* Narrows what a predicate's fact says when the predicate is (truth)
 * true: an AND chain's comparisons all hold when it does, an OR chain's
 * all fail when it does not. */
static void refine(const ctx *c, state *s, const fact *f, int truth) {
  if (!f->ok || (f->n > 1 && truth == f->or_chain))
    return;
  for (int k = 0; k < f->n; k++)
    refine1(c, s, &f->c[k], truth);
}

/* Data stored from in's operands first on: the pointers in it escape (not a
 * 32-bit integer made from parameters, as the float or int arguments of
 * "p[i] = v"). */
static void escape(ctx *c, const state *s, const ins *in, int first) {
  const opnd *o = in->s;
  for (int k = first; k < in->nsrc; k++)
    for (int h = 0; h < (in->width + 3) / 4 && o[k].reg + h < NREGS; h++)
      if (c->p->slot[o[k].reg + h] >= 0 &&
          REG(c, s, o[k].reg + h).kind != V_I32)
        unbounded(c, REG(c, s, o[k].reg + h).taint);
}

static val product(int64_t al, int64_t ah, int64_t bl, int64_t bh,
                   __int128 *lo, __int128 *hi) {
  __int128 p[4] = {(__int128)al * bl, (__int128)al * bh, (__int128)ah * bl,
                   (__int128)ah * bh};
  *lo = *hi = p[0];
  for (int k = 1; k < 4; k++) {
    if (p[k] < *lo)
      *lo = p[k];
    if (p[k] > *hi)
      *hi = p[k];
  }
  return top(0);
}

/* The 64-bit base of carry k plus an offset in [lo, hi]: the value of the
 * pair its low and high halves make. */
static val base_plus(const carry_t *k, __int128 lo, __int128 hi,
                     uint64_t taint) {
  val v = k->base;
  v.exact = 0;
  v.taint = taint | k->base.taint | k->av.taint;
  __int128 vl = (__int128)v.lo + lo, vh = (__int128)v.hi + hi;
  v.lo = vl < -BIG ? -BIG : (int64_t)vl;
  v.hi = vh > BIG ? BIG : (int64_t)vh;
  return v;
}

static void step(ctx *c, state *s, const ins *in) {
  int pr = in->guard != 0xff && (in->guard & 7) != 7;
  /* (A comparison's own predicate: the fact it chains to is read first.) */
  int setp = in->op == I_SETP || in->op == I_SETPX;
  for (int k = 0; k < NPRED; k++)
    if (in->kill >> k & 1) {
      s->carry[k].ok = s->carry[k].cknown = 0;
      if (!setp)
        s->f[k].ok = 0;
    }
  const opnd *o = in->s;
  uint64_t t = 0; /* what the result is computed from */
  for (int k = 0; k < in->nsrc; k++)
    if ((o[k].kind == O_REG || o[k].kind == O_ADDR) && o[k].reg != ZERO) {
      t |= REG(c, s, o[k].reg).taint;
      if (o[k].reg2 != ZERO)
        t |= REG(c, s, o[k].reg2).taint;
    } else if (o[k].kind == O_CONST) {
      t |= param_taint(c, o[k].v);
    }
  val v;
  switch (in->op) {
  case I_NOP:
  case I_BRA:
    return;
  case I_LEA_LO: {
    carry_t k = {0};
    k.ok = !pr && o[0].kind == O_REG && o[0].reg != ZERO &&
           o[0].reg != in->dst;
    if (k.ok) {
      k.dst = in->dst;
      k.a = o[0].reg;
      k.av = get32(c, s, &o[0]);
      k.base = get64(c, s, &o[1]);
      k.b = o[1];
      k.sh = o[2].v;
    }
    put(c, s, in->dst, top(t), pr);
    s->carry[in->pdst] = k;
    return;
  }
  case I_LEA_HI: {
    carry_t *k = &s->carry[in->pdst];
    /* The same index, the high half of the same base, the destination
     * next to the low half's. */
    int match = !pr && k->ok && in->dst == k->dst + 1 && o[0].kind == O_REG &&
                o[0].reg == k->a && o[3].kind == O_IMM && o[3].v == k->sh &&
                k->sh >= 0 && k->sh < 32 &&
                ((k->b.kind == O_CONST && o[1].kind == O_CONST &&
                  o[1].v == k->b.v + 4) ||
                 (k->b.kind == O_REG && o[1].kind == O_REG &&
                  o[1].reg == k->b.reg + 1));
    v = top(t);
    int64_t lo, hi, hl = 0, hh = 0;
    if (match && in->uns) { /* .SX32 */
      if (as32(&k->av, 0, &lo, &hi))
        hl = lo < 0 ? -1 : 0, hh = hi < 0 ? -1 : 0;
      else
        match = 0;
    } else if (match) {
      val h = get32(c, s, &o[2]);
      match = as32(&h, 0, &hl, &hh) && as32(&k->av, 1, &lo, &hi);
    }
    if (match && hl == hh && (hl == 0 || hl == -1) &&
        (k->base.kind == V_PTR || k->base.kind == V_I64)) {
      int64_t il, ih;
      if (in->uns) { /* sign-extended: the signed value */
        il = lo;
        ih = hi;
      } else { /* hl:lo, lo unsigned */
        il = lo + hl * TWO32;
        ih = hi + hl * TWO32;
      }
      v = base_plus(k, (__int128)il << k->sh, (__int128)ih << k->sh, t);
    }
    k->ok = 0;
    if (v.kind == V_TOP) {
      put(c, s, in->dst, v, pr);
      return;
    }
    put64(c, s, in->dst - 1, v, pr);
    return;
  }
  case I_NUM:
    for (int k = 0; k < in->nd; k++)
      put(c, s, in->dst + k, top(0), pr);
    return;
  case I_ADD_LO: {
    /* Which operand is the 64-bit one (a pointer, else an integer) and
     * which the 32-bit one added to it. */
    carry_t k = {0};
    int plain = !pr && !o[0].neg && !o[0].inv && !o[1].neg && !o[1].inv;
    for (int i = 0; i < 2 && !k.ok && plain; i++) {
      /* (A pointer in either; of two 64-bit integers, the first.) */
      val b = get64(c, s, &o[1 - i]), x = get32(c, s, &o[i]);
      if ((b.kind == V_PTR || (b.kind == V_I64 && i == 1)) &&
          x.kind == V_I32 &&
          (o[1 - i].kind == O_REG || o[1 - i].kind == O_CONST)) {
        k.ok = k.add = 1;
        k.dst = in->dst;
        k.a = ZERO;
        k.av = x;
        k.base = b;
        k.b = o[1 - i];
      }
    }
    /* The low half of the sum, as a 32-bit integer too, and its carry
     * when the range of the sum decides it. */
    val low = top(t), xa = get32(c, s, &o[0]), xb = get32(c, s, &o[1]);
    int64_t x0, x1, y0, y1;
    if (!pr && as32(&xa, 1, &x0, &x1) && as32(&xb, 1, &y0, &y1)) {
      low = i32((__int128)x0 + y0, (__int128)x1 + y1, t);
      if (x1 + y1 < TWO32)
        k.cknown = 1, k.cval = 0;
      else if (x0 + y0 >= TWO32)
        k.cknown = 1, k.cval = 1;
    }
    put(c, s, in->dst, low, pr);
    s->carry[in->pdst] = k;
    return;
  }
  case I_ADD_HI: {
    carry_t *k = &s->carry[in->pdst];
    v = top(t);
    /* One operand the high half of the 64-bit one, the other that of the
     * 32-bit one: 0 (unsigned) or -1 (its sign). */
    for (int i = 0; i < 2 && k->ok && k->add && !pr &&
                    in->dst == k->dst + 1 && v.kind == V_TOP;
         i++) {
      const opnd *bh = &o[i], *xh = &o[1 - i];
      int is_high = (k->b.kind == O_CONST && bh->kind == O_CONST &&
                     bh->v == k->b.v + 4) ||
                    (k->b.kind == O_REG && bh->kind == O_REG &&
                     bh->reg == k->b.reg + 1);
      if (!is_high || bh->neg || bh->inv)
        continue;
      val h = get32(c, s, xh);
      int64_t hl, hh, lo, hi;
      if (!as32(&h, 0, &hl, &hh) || hl != hh || (hl != 0 && hl != -1))
        continue;
      if (hl == 0 ? !as32(&k->av, 1, &lo, &hi)
                  : !(as32(&k->av, 0, &lo, &hi) && hi < 0))
        continue;
      v = base_plus(k, lo, hi, t);
    }
    k->ok = 0;
    if (v.kind == V_TOP) {
      /* Not a pair the analysis followed: a 32-bit sum, if its carry is
       * known. */
      val a = get32(c, s, &o[0]), b = get32(c, s, &o[1]);
      if (k->cknown && a.kind == V_I32 && b.kind == V_I32)
        v = i32((__int128)a.lo + b.lo + k->cval, (__int128)a.hi + b.hi + k->cval, t);
      put(c, s, in->dst, v, pr);
      return;
    }
    put64(c, s, in->dst - 1, v, pr);
    return;
  }
  case I_IMADX: {
    const carry_t *k = &s->carry[in->pdst];
    val a = get32(c, s, &o[0]), b = get32(c, s, &o[1]), d = get32(c, s, &o[2]);
    v = top(t);
    if (k->cknown && a.kind == V_I32 && b.kind == V_I32 && d.kind == V_I32) {
      __int128 lo, hi;
      product(a.lo, a.hi, b.lo, b.hi, &lo, &hi);
      v = i32(lo + d.lo + k->cval, hi + d.hi + k->cval, t);
    }
    break;
  }
  case I_SHF_HI: {
    /* The pair s2:s0 as a 64-bit integer: a register pair, or two
     * registers apart. */
    val x;
    if (o[0].kind == O_REG && o[2].kind == O_REG && o[0].reg != ZERO &&
        o[2].reg == o[0].reg + 1) {
      x = get64(c, s, &o[0]);
    } else {
      val l32 = get32(c, s, &o[0]), h32 = get32(c, s, &o[2]);
      x = pair64(&l32, &h32, t);
    }
    v = top(t);
    int64_t sh = o[1].v;
    if (x.kind == V_I64 && sh >= 0 && sh < 32 && x.lo > -BIG && x.hi < BIG) {
      __int128 l = (__int128)x.lo << sh, h = (__int128)x.hi << sh;
      int64_t hl = (int64_t)(l >> 32), hh = (int64_t)(h >> 32);
      if (hl == hh)
        v = i32(hl, hl, t);
    }
    break;
  }
  case I_SETPX: {
    val a = get32(c, s, &o[0]), b = get32(c, s, &o[1]);
    fact nf = {0};
    if (!pr && a.kind == V_I32 && b.kind == V_I32 && a.lo == a.hi &&
        b.lo == b.hi && a.lo == b.lo)
      nf = s->f[in->chain];
    s->f[in->pdst] = nf;
    return;
  }
  case I_ESC:
    escape(c, s, in, 0);
    for (int k = 0; k < in->nd; k++)
      put(c, s, in->dst + k, top(0), pr);
    return;
  case I_CALL: { /* what it writes: unknown, from what it reads */
    uint64_t from = 0;
    for (int r = 0; r < NREGS; r++)
      if ((in->call[r] & 2) && c->p->slot[r] >= 0)
        from |= REG(c, s, r).taint;
    for (int r = 0; r < NREGS; r++)
      if (in->call[r] & 1)
        put(c, s, r, top(from), pr);
    return;
  }
  case I_EXIT:
    if (pr) /* past it, its predicate does not hold */
      refine(c, s, &s->f[in->guard], in->gnot);
    return;
  case I_SETP: {
    fact nf = {0};
    nf.ok = !pr && o[0].kind == O_REG && o[0].reg != ZERO && !o[0].neg &&
            !o[0].inv;
    if (nf.ok && in->chain != 0xff) { /* combined with another predicate */
      const fact *q = &s->f[in->chain];
      nf.ok = q->ok && q->n < FACT_MAX && (q->n == 1 || q->or_chain == in->cond);
      if (nf.ok) {
        nf = *q;
        nf.or_chain = in->cond;
      }
    }
    if (nf.ok) {
      compare_t *k = &nf.c[nf.n++];
      k->a = o[0].reg;
      k->cmp = in->cmp;
      k->uns = in->uns;
      k->b = get32(c, s, &o[1]);
      add_threshold(c, &k->b);
    }
    s->f[in->pdst] = nf;
    return;
  }
  case I_MEM: {
    const opnd *a = &o[0];
    val av = a->reg == ZERO ? top(0) : REG(c, s, a->reg);
    if (a->exact && av.kind == V_PTR)
      record(c, av.w, av.lo + a->v, av.hi + a->v + in->width);
    else
      unbounded(c, av.taint);
    if (a->reg2 != ZERO)
      unbounded(c, REG(c, s, a->reg2).taint);
    if (in->uns)
      escape(c, s, in, 1);
    for (int k = 0; k < in->nd; k++)
      put(c, s, in->dst + k, top(0), pr);
    return;
  }
  case I_MOV:
    v = get32(c, s, &o[0]);
    break;
  case I_IMAD: {
    val a = get32(c, s, &o[0]), b = get32(c, s, &o[1]), d = get32(c, s, &o[2]);
    if (a.kind != V_I32 || b.kind != V_I32 || d.kind != V_I32) {
      v = top(t);
      break;
    }
    __int128 lo, hi;
    product(a.lo, a.hi, b.lo, b.hi, &lo, &hi);
    v = i32(lo + d.lo, hi + d.hi, t);
    break;
  }
  case I_WIDE: {
    val a = get32(c, s, &o[0]), b = get32(c, s, &o[1]), d = get64(c, s, &o[2]);
    int64_t al, ah, bl, bh;
    if (!as32(&a, in->uns, &al, &ah) || !as32(&b, in->uns, &bl, &bh) ||
        (d.kind != V_PTR && d.kind != V_I64)) {
      v = top(t);
    } else {
      __int128 lo, hi;
      product(al, ah, bl, bh, &lo, &hi);
      lo += d.lo;
      hi += d.hi;
      v = d;
      v.taint = t;
      v.exact = 0;
      v.lo = lo < -BIG ? -BIG : (int64_t)lo;
      v.hi = hi > BIG ? BIG : (int64_t)hi;
    }
    put64(c, s, in->dst, v, pr);
    return;
  }
  case I_ADD: {
    __int128 lo = 0, hi = 0;
    int known = 1;
    for (int k = 0; k < in->nsrc; k++) {
      val a = get32(c, s, &o[k]);
      if (a.kind != V_I32) {
        known = 0;
        break;
      }
      lo += a.lo;
      hi += a.hi;
    }
    v = known ? i32(lo, hi, t) : top(t);
    break;
  }
  case I_LEA:
  case I_SHL: {
    val a = get32(c, s, &o[0]);
    int64_t sh = in->op == I_LEA ? o[2].v : o[1].v;
    val d = in->op == I_LEA ? get32(c, s, &o[1]) : i32(0, 0, 0);
    int64_t lo, hi;
    if (sh < 0 || sh > 31 || d.kind != V_I32 || !as32(&a, 0, &lo, &hi)) {
      v = top(t);
      break;
    }
    v = i32(((__int128)lo << sh) + d.lo, ((__int128)hi << sh) + d.hi, t);
    break;
  }
  case I_SHR: {
    val a = get32(c, s, &o[2]);
    int64_t lo, hi, sh = o[1].v;
    if (sh < 0 || sh > 31 || !as32(&a, in->uns, &lo, &hi)) {
      v = top(t);
      break;
    }
    v = i32(lo >> sh, hi >> sh, t);
    break;
  }
  case I_MNMX: {
    val a = get32(c, s, &o[0]), b = get32(c, s, &o[1]);
    int64_t al, ah, bl, bh;
    if (!as32(&a, in->uns, &al, &ah) || !as32(&b, in->uns, &bl, &bh)) {
      v = top(t);
      break;
    }
    if (in->cmp == 0)
      v = i32(al < bl ? al : bl, ah < bh ? ah : bh, t);
    else
      v = i32(al > bl ? al : bl, ah > bh ? ah : bh, t);
    break;
  }
  case I_SEL: {
    val a = get32(c, s, &o[0]), b = get32(c, s, &o[1]);
    v = join(&a, &b);
    v.taint = t;
    break;
  }
  case I_S2R: {
    int64_t id = o[0].v;
    if (in->nd > 1) { /* CS2R R2, SRZ: a pair of zeros */
      val z = id == SR_OTHER ? top(0) : i32(0, 0, 0);
      put(c, s, in->dst, z, pr);
      put(c, s, in->dst + 1, z, pr);
      return;
    }
    if (id >= SR_TID && id < SR_TID + 3)
      v = i32(0, (int64_t)c->dims[3 + id - SR_TID] - 1, 0);
    else if (id >= SR_CTAID && id < SR_CTAID + 3)
      v = i32(0, (int64_t)c->dims[id - SR_CTAID] - 1, 0);
    else if (id == SR_LANE)
      v = i32(0, 31, 0);
    else
      v = top(0);
    break;
  }
  case I_LDC:
    if (in->nd == 2) {
      put64(c, s, in->dst, get64(c, s, &o[0]), pr);
      return;
    }
    v = get32(c, s, &o[0]);
    break;
  default:
    for (int k = 0; k < in->nd; k++)
      put(c, s, in->dst + k, top(t), pr);
    return;
  }
  put(c, s, in->dst, v, pr);
  for (int k = 1; k < in->nd; k++)
    put(c, s, in->dst + k, top(t), pr);
}

int kkr_bounds_eval(const kkr_bounds_prog *p, const unsigned dims[6],
                    const unsigned char *params, uint32_t nbytes,
                    kkr_bounds_word *out, uint32_t nwords, uint64_t *used) {
  for (uint32_t w = 0; w < nwords; w++)
    out[w].state = KKR_BOUNDS_NONE, out[w].lo = out[w].hi = 0;
  for (int k = 0; k < 6; k++)
    if (!dims[k])
      return 0;
  ctx c = {p, dims, params, nbytes, out, nwords, {0}, 0, 0};
  static const val zero = {.kind = V_I32};
  add_threshold(&c, &zero); /* (-1 and 0) */
  uint32_t nr = p->nregs ? p->nregs : 1, nb = p->nblocks;
  val *in = calloc((size_t)nb * nr, sizeof *in);
  val *cur = malloc(nr * sizeof *cur);
  val *edge = malloc(nr * sizeof *edge);
  uint8_t *reached = calloc(nb, 1), *queued = calloc(nb, 1);
  uint16_t *visits = calloc(nb, sizeof *visits);
  int ok = in && cur && edge && reached && queued && visits;
  if (ok) { /* registers start unknown */
    for (size_t i = 0; i < (size_t)nb * nr; i++)
      in[i] = top(0);
    reached[0] = queued[0] = 1;
  }
  for (uint32_t first = 0; ok;) {
    /* The lowest block queued. */
    int32_t b = -1;
    for (uint32_t k = first; k < nb; k++)
      if (queued[k]) {
        b = (int32_t)k;
        break;
      }
    if (b < 0) {
      if (first == 0)
        break;
      first = 0;
      continue;
    }
    first = (uint32_t)b;
    queued[b] = 0;
    if (++visits[b] > MAX_VISITS) {
      ok = 0; /* no fixpoint: give up */
      break;
    }
    state s;
    s.r = cur;
    memset(s.f, 0, sizeof s.f);
    memset(s.carry, 0, sizeof s.carry);
    memcpy(cur, in + (size_t)b * nr, nr * sizeof *cur);
    const block *bl = &p->blocks[b];
    for (uint32_t i = bl->first; i < bl->last; i++)
      step(&c, &s, &p->code[i]);
    const ins *last = &p->code[bl->last - 1];
    for (int e = 0; e < 2; e++) {
      int32_t n = bl->next[e];
      if (n < 0)
        continue;
      memcpy(edge, cur, nr * sizeof *cur);
      if (last->op == I_BRA && last->guard != 0xff && (last->guard & 7) != 7) {
        state es = s;
        es.r = edge;
        /* Taken when its predicate (or its negation) holds. */
        refine(&c, &es, &s.f[last->guard], e == 1 ? !last->gnot : last->gnot);
      }
      val *dst = in + (size_t)n * nr;
      int changed = !reached[n];
      for (uint32_t r = 0; r < nr; r++) {
        val j = reached[n] ? join(&dst[r], &edge[r]) : edge[r];
        if (reached[n] && !same(&j, &dst[r]) && visits[n] >= WIDEN_AFTER)
          j = widen(&c, &dst[r], &j);
        if (!reached[n] || !same(&j, &dst[r])) {
          dst[r] = j;
          changed = 1;
        }
      }
      reached[n] = 1;
      if (changed) {
        queued[n] = 1;
        if ((uint32_t)n < first)
          first = (uint32_t)n;
      }
    }
  }
  free(in);
  free(cur);
  free(edge);
  free(reached);
  free(queued);
  free(visits);
  /* (Past 64 words, the whole parameters count.) */
  *used = c.used | (nbytes > 64 * 8 ? ~0ull : 0);
  return ok;
}

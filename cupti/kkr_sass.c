/* Which kernel parameters a kernel may write through, from its machine code
 * (SASS, as nvdisasm prints it).
 *
 * A flow-insensitive taint analysis per function: a register loaded from the
 * parameter bank (c[0x0][base + k]) carries parameter word k / 8; whatever an
 * instruction computes from tainted operands carries their union; a store,
 * reduction or atomic whose address register carries word w writes through
 * the pointer at w.  Local memory holds, wherever it is loaded, what was
 * stored to it anywhere.  Anything the analysis cannot follow (calls of
 * subroutines that are not leaves, bulk copies) makes the function
 * unknown: all of its pointers are then taken as maybe written.
 *
 * A kernel without parameters may read them from a __constant__ variable
 * (Kokkos' CUDA backend does, for large functors): the same analysis then
 * follows the words of bank 3 (c[0x3][...]) where the variable lies. */
#define _GNU_SOURCE
#include <ctype.h>
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kkr_sass.h"

#define NREGS 512 /* R0-R255, then UR0-UR255 */

typedef struct {
  uint64_t taint[NREGS];
  uint64_t written;
  uint64_t atomic; /* words reached by reductions and atomics */
  uint64_t plain;  /* words reached by plain loads and stores */
  uint64_t local; /* what was stored to local memory, anywhere */
  int unknown;
  uint32_t bank;       /* 0: the parameters; 3: a __constant__ variable */
  uint32_t base, size; /* the words followed: [base, base + size) of bank */
} fn_state;

/* Register index of the token at s ("R12", "UR4", "RZ"), or -1. */
static int reg_index(const char *s, const char **end) {
  int u = 0;
  if (s[0] == 'U' && s[1] == 'R') {
    u = 1;
    s++;
  }
  if (s[0] != 'R' || !isdigit((unsigned char)s[1]))
    return -1;
  char *e;
  long n = strtol(s + 1, &e, 10);
  if (end)
    *end = e;
  if (n < 0 || n > 255)
    return -1;
  return (int)n + (u ? 256 : 0);
}

/* The taint of one operand: registers and constants of the followed words
 * (c[0x0][...] for parameters) in it. */
static uint64_t operand_taint(const fn_state *f, const char *op, size_t len) {
  uint64_t t = 0;
  for (size_t i = 0; i < len; i++) {
    const char *p = op + i;
    if (!strncmp(p, "c[0x", 4) && p[4] == (char)('0' + f->bank) &&
        !strncmp(p + 5, "][0x", 4)) {
      unsigned long off = strtoul(p + 7, NULL, 16);
      if (off >= f->base && off < f->base + f->size && (off - f->base) / 8 < 64)
        t |= 1ull << ((off - f->base) / 8);
      continue;
    }
    if ((p[0] == 'R' || (p[0] == 'U' && p[1] == 'R')) &&
        (i == 0 || !isalnum((unsigned char)op[i - 1]))) {
      const char *e;
      int r = reg_index(p, &e);
      if (r >= 0) {
        t |= f->taint[r];
        if (!strncmp(e, ".64", 3) && r % 256 < 255)
          t |= f->taint[r + 1];
        i = (size_t)(e - op) - 1;
      }
    }
  }
  return t;
}

/* c[0x0][R3 + 0x210] (not RZ, the zero register): a computed place in the
 * bank followed. */
static int dynamic_bank_index(const fn_state *f, const char *args) {
  char bank[8];
  snprintf(bank, sizeof bank, "c[0x%u][", f->bank);
  for (const char *p = strstr(args, bank); p; p = strstr(p + 1, bank)) {
    const char *q = p + 7;
    if (*q == 'U')
      q++;
    if (*q == 'R' && isdigit((unsigned char)q[1]))
      return 1;
  }
  return 0;
}

static int starts(const char *s, const char *prefix) {
  return !strncmp(s, prefix, strlen(prefix));
}

/* The taint of the address of a memory instruction's operands args: the
 * register inside [...] (desc[URx][Ry.64]: the second bracket); 0 if none. */
static uint64_t address_taint(const fn_state *f, const char *args) {
  const char *lb = strchr(args, '[');
  if (lb && lb - args >= 4 && !strncmp(lb - 4, "desc", 4)) {
    const char *next = strchr(lb + 1, '[');
    if (next)
      lb = next;
  }
  const char *rb = lb ? strchr(lb, ']') : NULL;
  return lb && rb ? operand_taint(f, lb + 1, (size_t)(rb - lb - 1)) : 0;
}

/* One instruction ("IMAD.WIDE R2, R0, 0x4, R4"), predicated or not: its
 * effect on the registers' taint (a definition replaces what the register
 * carried unless a predicate may skip it) and on what is written. */
static int step(fn_state *f, const char *ins, int predicated) {
  const char *sp = strchr(ins, ' ');
  size_t oplen = sp ? (size_t)(sp - ins) : strlen(ins);
  char opc[48];
  snprintf(opc, sizeof opc, "%.*s", (int)oplen, ins);
  const char *args = sp ? sp + 1 : "";
  /* Local memory, the thread's own: what any store put there, any load
   * may give back. */
  if (starts(opc, "STL")) {
    const char *rb = strchr(args, ']');
    uint64_t t = rb ? operand_taint(f, rb + 1, strlen(rb + 1)) : 0;
    if (rb && (strstr(opc, ".64") || strstr(opc, ".128"))) {
      const char *e, *r = strchr(rb, 'R');
      int d = r ? reg_index(r, &e) : -1;
      for (int k = 1; d >= 0 && k < (strstr(opc, ".128") ? 4 : 2) &&
                      d % 256 + k < 256;
           k++)
        t |= f->taint[d + k];
    }
    uint64_t old = f->local;
    f->local |= t;
    return f->local != old;
  }
  if (starts(opc, "LDL")) {
    const char *e;
    int d = reg_index(args, &e);
    int n = strstr(opc, ".128") ? 4 : strstr(opc, ".64") ? 2 : 1;
    for (int k = 0; d >= 0 && k < n && d % 256 + k < 256; k++)
      f->taint[d + k] = predicated ? f->taint[d + k] | f->local : f->local;
    return 0;
  }
  /* What the analysis cannot follow: parameters read at a computed place
   * in the bank, calls, bulk copies. */
  if (dynamic_bank_index(f, args) || starts(opc, "CALL") ||
      starts(opc, "UBLKCP") || starts(opc, "UTMA") || starts(opc, "UBLKRED") ||
      starts(opc, "SUST") || starts(opc, "SURED") || starts(opc, "SUATOM") ||
      starts(opc, "BRX") || starts(opc, "JMX") || starts(opc, "RET")) {
    int changed = !f->unknown;
    f->unknown = 1;
    return changed;
  }
  /* Stores, reductions, atomics to global or generic memory: the address is
   * the register inside [...]. */
  int store = starts(opc, "STG") || (starts(opc, "ST.") || !strcmp(opc, "ST")) ||
              starts(opc, "RED") || starts(opc, "ATOMG") ||
              (starts(opc, "ATOM") && !starts(opc, "ATOMS"));
  if (store) {
    if (!strchr(args, '['))
      return 0;
    uint64_t t = address_taint(f, args);
    uint64_t old = f->written;
    f->written |= t;
    if (starts(opc, "ST"))
      f->plain |= t;
    else
      f->atomic |= t;
    /* An atomic's result register may carry the value it read. */
    if (starts(opc, "ATOM")) {
      const char *e;
      int r = reg_index(args, &e);
      if (r >= 0 && (f->taint[r] | t) != f->taint[r]) {
        f->taint[r] |= t;
        return 1;
      }
    }
    return f->written != old;
  }
  if (starts(opc, "STS") || starts(opc, "BRA") || starts(opc, "EXIT") ||
      starts(opc, "BAR") || starts(opc, "ISETP") || starts(opc, "FSETP") ||
      starts(opc, "NOP") || starts(opc, "MEMBAR") || starts(opc, "BSYNC") ||
      starts(opc, "BSSY") || starts(opc, "WARPSYNC"))
    return 0;
  /* Everything else: the first operand is the destination. */
  const char *e;
  int d = reg_index(args, &e);
  if (d < 0)
    return 0;
  const char *comma = strchr(args, ',');
  uint64_t t = comma ? operand_taint(f, comma + 1, strlen(comma + 1)) : 0;
  /* A load from memory gives data, not the pointer it was addressed by
   * (a parameter's constant loaded by LDC/ULDC is the parameter). */
  if (starts(opc, "LDG") || (starts(opc, "LD") && (opc[2] == '.' || opc[2] == 0)) ||
      starts(opc, "LDGSTS"))
    f->plain |= address_taint(f, args);
  if (starts(opc, "LDG") || starts(opc, "LDS") || starts(opc, "LDSM") ||
      (starts(opc, "LD") && (opc[2] == '.' || opc[2] == 0)) ||
      starts(opc, "ATOMS") || starts(opc, "TEX") || starts(opc, "TLD") ||
      starts(opc, "SULD") || starts(opc, "LDGSTS") || starts(opc, "SHFL"))
    t = 0;
  int wide = strstr(opc, ".64") || strstr(opc, "WIDE") || !strncmp(e, ".64", 3);
  for (int k = 0; k <= wide && d + k < NREGS; k++)
    f->taint[d + k] = predicated ? f->taint[d + k] | t : t;
  return 0;
}

int kkr_sass_instruction(const char *line, char *out, size_t n, char *pred,
                         size_t pn) {
  const char *p = strstr(line, "*/");
  if (!p || !strstr(line, "/*"))
    return 0;
  p += 2;
  while (*p == ' ' || *p == '\t')
    p++;
  if (pn)
    pred[0] = 0;
  if (*p == '@') { /* a predicate */
    const char *q = p + 1;
    while (*p && *p != ' ')
      p++;
    if (pn)
      snprintf(pred, pn, "%.*s", (int)(p - q), q);
    while (*p == ' ')
      p++;
  }
  const char *semi = strchr(p, ';');
  if (!semi || semi == p)
    return 0;
  size_t len = (size_t)(semi - p);
  while (len && p[len - 1] == ' ')
    len--;
  if (len >= n)
    len = n - 1;
  memcpy(out, p, len);
  out[len] = 0;
  return 1;
}

static int instruction(const char *line, char *out, size_t n,
                       int *predicated) {
  char pred[16];
  int ok = kkr_sass_instruction(line, out, n, pred, sizeof pred);
  *predicated = ok && pred[0];
  return ok;
}

/* A subroutine that CALL.REL reaches inside the function's code (the
 * slow paths of sqrtf, sinf, division...: "$__internal_0_$...:"): 1 if it
 * touches no memory and calls nothing, with written[r] (R0-R255, then
 * UR0-UR255) bit 0 set for the registers it writes, bit 1 for those it
 * reads; 0 if it does more or is not found. */
int kkr_sass_leaf_call(const char *body, size_t len, const char *ins,
                       uint8_t written[512]) {
  const char *q = strstr(ins, "`(");
  if (!q || q[2] != '$')
    return 0;
  char label[256];
  snprintf(label, sizeof label, "\n%.*s:", (int)strcspn(q + 2, ")"), q + 2);
  const char *at = memmem(body, len, label, strlen(label));
  if (!at)
    return 0;
  const char *end = body + len, *p = at + strlen(label);
  memset(written, 0, 512);
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
    char line[512], text[256], pred[16];
    snprintf(line, sizeof line, "%.*s", (int)(l < 511 ? l : 511), p);
    p += l + 1;
    if (line[0] == '$' || !strncmp(line, "//", 2))
      break; /* the next subroutine, the next function */
    if (!kkr_sass_instruction(line, text, sizeof text, pred, sizeof pred))
      continue;
    if (starts(text, "RET"))
      continue;
    if (strchr(text, '[') || starts(text, "CALL") || starts(text, "BRX") ||
        starts(text, "JMX") || strstr(text, "c[0x") || starts(text, "ATOM") ||
        starts(text, "RED") || starts(text, "SU") || starts(text, "BAR"))
      return 0; /* memory, calls, the constant bank */
    const char *a = strchr(text, ' ');
    while (a && *a) {
      a++;
      while (*a == ' ')
        a++;
      const char *e;
      int r = reg_index(a, &e);
      if (r >= 0) { /* (pairs, quads: the registers after it) */
        int n = strstr(text, "128") ? 4
                : strstr(text, ".64") || strstr(text, "WIDE") ||
                        strstr(text, "F64") || text[0] == 'D'
                    ? 2
                    : 1;
        for (int k = 0; k < n && (r & 255) + k < 256; k++)
          written[r + k] |= 1;
        /* What it reads: every register after the destination. */
        for (const char *q2 = e; *q2; q2++) {
          const char *e2;
          int r2 = (q2[0] == 'R' || q2[0] == 'U') && !isalnum((unsigned char)q2[-1])
                       ? reg_index(q2, &e2)
                       : -1;
          if (r2 >= 0)
            for (int k = 0; k < 2 && (r2 & 255) + k < 256; k++)
              written[r2 + k] |= 2;
        }
        break;
      }
      if (!strncmp(a, "PT", 2) || (a[0] == 'P' && isdigit((unsigned char)a[1])) ||
          !strncmp(a, "UP", 2)) {
        a = strchr(a, ','); /* a predicate first: the register after it */
        continue;
      }
      break;
    }
  }
  return 1;
}

/* The function's code as basic blocks: instructions, where each block
 * goes (fall-through, branch target), label names. */
#define MAX_INS 65536
#define MAX_BLOCKS 4096

typedef struct {
  char text[160];
  uint8_t predicated, branch, ends; /* ends: EXIT, RET, unconditional BRA */
  int32_t target;                   /* the label index a BRA goes to */
  uint8_t *call; /* a call of a leaf subroutine: the registers it writes */
} sass_ins;

typedef struct {
  uint32_t first, last; /* instructions [first, last) */
  uint64_t *in;         /* registers' taint on entry (NREGS) */
  int32_t next[2];
  uint8_t reached;
} sass_block;

static void analyze(const char *name, const char *body, size_t len,
                    uint32_t bank, uint32_t base, uint32_t size,
                    kkr_sass_fn_cb cb, void *arg) {
  fn_state *f = calloc(1, sizeof *f);
  sass_ins *ins = calloc(MAX_INS, sizeof *ins);
  char (*labels)[32] = calloc(MAX_BLOCKS, 32);
  uint32_t *label_at = calloc(MAX_BLOCKS, sizeof *label_at);
  sass_block *blocks = calloc(MAX_BLOCKS, sizeof *blocks);
  uint32_t nins = 0, nlabels = 0, nblocks = 0;
  if (!f || !ins || !labels || !label_at || !blocks)
    goto out;
  f->bank = bank;
  f->base = base;
  f->size = size;
  if (size / 8 > 64)
    f->unknown = 1; /* parameters beyond what the masks hold */
  /* Instructions and labels. */
  const char *p = body, *end = body + len;
  while (p < end && !f->unknown) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
    char line[512], text[512];
    snprintf(line, sizeof line, "%.*s", (int)(l < 511 ? l : 511), p);
    p += l + 1;
    int pred = 0;
    if (line[0] == '$')
      break; /* the function's subroutines (reached by its calls) */
    if (line[0] == '.' && line[1] == 'L' && strchr(line, ':')) {
      if (nlabels == MAX_BLOCKS) {
        f->unknown = 1;
        break;
      }
      snprintf(labels[nlabels], 32, "%.*s", (int)strcspn(line, ":"), line);
      label_at[nlabels++] = nins;
      continue;
    }
    if (!instruction(line, text, sizeof text, &pred))
      continue;
    if (nins == MAX_INS) {
      f->unknown = 1;
      break;
    }
    sass_ins *in = &ins[nins++];
    snprintf(in->text, sizeof in->text, "%.159s", text);
    in->predicated = (uint8_t)pred;
    in->target = -1;
    in->branch = starts(text, "BRA");
    /* (BRA.DIV UR4, `(.L_x_3) and BRA.U !UP0, `(...) may fall through.) */
    const char *sp = strchr(text, ' ');
    int cond_bra = in->branch && sp && strncmp(sp + 1, "`(", 2) != 0;
    in->ends = (starts(text, "EXIT") || starts(text, "RET") ||
                (in->branch && !cond_bra)) && !pred;
    if (strlen(text) >= sizeof in->text - 1)
      f->unknown = 1; /* an instruction too long to read safely */
    if (starts(text, "CALL.REL") && (in->call = malloc(NREGS)) &&
        kkr_sass_leaf_call(body, len, text, in->call))
      snprintf(in->text, sizeof in->text, "NOP"); /* (modeled by call) */
    else if (in->call) {
      free(in->call);
      in->call = NULL;
    }
  }
  /* Branch targets. */
  for (uint32_t i = 0; i < nins && !f->unknown; i++) {
    if (!ins[i].branch)
      continue;
    const char *q = strstr(ins[i].text, "(.L");
    if (!q) {
      f->unknown = 1; /* an indirect branch */
      break;
    }
    char target[32];
    snprintf(target, sizeof target, "%.*s", (int)strcspn(q + 1, ")"), q + 1);
    for (uint32_t k = 0; k < nlabels; k++)
      if (!strcmp(labels[k], target))
        ins[i].target = (int32_t)k;
    if (ins[i].target < 0)
      f->unknown = 1;
  }
  /* Blocks: a new one at each label and after each branch or exit. */
  uint8_t *leader = calloc(nins + 1, 1);
  if (!leader)
    f->unknown = 1;
  if (!f->unknown) {
    leader[0] = 1;
    for (uint32_t k = 0; k < nlabels; k++)
      leader[label_at[k]] = 1;
    for (uint32_t i = 0; i < nins; i++)
      if (ins[i].branch || ins[i].ends)
        leader[i + 1] = 1;
    for (uint32_t i = 0; i < nins && nblocks < MAX_BLOCKS; i++)
      if (leader[i]) {
        if (nblocks)
          blocks[nblocks - 1].last = i;
        blocks[nblocks].first = i;
        nblocks++;
      }
    if (nblocks)
      blocks[nblocks - 1].last = nins;
    if (nblocks == MAX_BLOCKS)
      f->unknown = 1;
  }
  /* Edges. */
  for (uint32_t b = 0; b < nblocks && !f->unknown; b++) {
    blocks[b].next[0] = blocks[b].next[1] = -1;
    const sass_ins *lastin = blocks[b].last > blocks[b].first
                                 ? &ins[blocks[b].last - 1]
                                 : NULL;
    if (!lastin || !lastin->ends)
      blocks[b].next[0] = b + 1 < nblocks ? (int32_t)b + 1 : -1;
    if (lastin && lastin->branch) {
      uint32_t at = label_at[lastin->target];
      for (uint32_t k = 0; k < nblocks; k++)
        if (blocks[k].first == at)
          blocks[b].next[1] = (int32_t)k;
    }
    blocks[b].in = calloc(NREGS, sizeof(uint64_t));
    if (!blocks[b].in)
      f->unknown = 1;
  }
  /* The taint flows block to block until nothing changes. */
  if (!f->unknown && nblocks) {
    blocks[0].reached = 1;
    for (int round = 0, changed = 1; changed && !f->unknown; round++) {
      changed = 0;
      if (round > 64) {
        f->unknown = 1; /* no fixpoint: give up */
        break;
      }
      for (uint32_t b = 0; b < nblocks && !f->unknown; b++) {
        if (!blocks[b].reached)
          continue;
        memcpy(f->taint, blocks[b].in, sizeof f->taint);
        for (uint32_t i = blocks[b].first; i < blocks[b].last; i++)
          if (ins[i].call) { /* what it writes: from what it reads */
            uint64_t t = 0;
            for (int r = 0; r < NREGS; r++)
              if (ins[i].call[r] & 2)
                t |= f->taint[r];
            for (int r = 0; r < NREGS; r++)
              if (ins[i].call[r] & 1)
                f->taint[r] = ins[i].predicated ? f->taint[r] | t : t;
          } else {
            changed |= step(f, ins[i].text, ins[i].predicated);
          }
        for (int k = 0; k < 2; k++) {
          int32_t n = blocks[b].next[k];
          if (n < 0)
            continue;
          if (!blocks[n].reached)
            changed = blocks[n].reached = 1;
          for (int r = 0; r < NREGS; r++)
            if ((blocks[n].in[r] | f->taint[r]) != blocks[n].in[r]) {
              blocks[n].in[r] |= f->taint[r];
              changed = 1;
            }
        }
      }
    }
  }
  free(leader);
  cb(name, f->unknown ? ~0ull : f->written,
     f->unknown ? 0 : f->atomic & ~f->plain, !f->unknown, arg);
out:
  for (uint32_t i = 0; ins && i < nins; i++)
    free(ins[i].call);
  for (uint32_t b = 0; b < nblocks; b++)
    free(blocks[b].in);
  free(blocks);
  free(label_at);
  free(labels);
  free(ins);
  free(f);
}

/* The end of what the function reads of bank 3's [base, base + size). */
static uint32_t constant_extent(const char *body, size_t len, uint32_t base,
                                uint32_t size) {
  uint32_t end = 0;
  const char *stop = body + len;
  for (const char *p = body;
       (p = memmem(p, (size_t)(stop - p), "c[0x3][0x", 9)); p++) {
    unsigned long off = strtoul(p + 7, NULL, 16);
    if (off >= base && off < (unsigned long)base + size &&
        off + 8 - base > end)
      end = (uint32_t)(off + 8 - base);
  }
  return end < size ? end : size;
}

void kkr_sass_parse(const char *text, const kkr_sass_bank *banks, uint32_t nbanks,
                    const kkr_sass_const *c3, kkr_sass_fn_cb cb, void *arg) {
  static const char marker[] = "//--------------------- .text.";
  const char *p = strstr(text, marker);
  while (p) {
    const char *name = p + strlen(marker);
    size_t nlen = strcspn(name, " \n");
    char fname[1024];
    snprintf(fname, sizeof fname, "%.*s", (int)(nlen < 1023 ? nlen : 1023), name);
    const char *next = strstr(name, marker);
    const char *end = next ? next : name + strlen(name);
    uint32_t base = 0, size = 0;
    for (uint32_t i = 0; i < nbanks; i++)
      if (!strcmp(banks[i].name, fname)) {
        base = banks[i].base;
        size = banks[i].size;
      }
    if (size)
      analyze(fname, name, (size_t)(end - name), 0, base, size, cb, arg);
    else
      cb(fname, ~0ull, 0, 0, arg); /* no parameter bank known */
    if (!size && c3 && c3->size) {
      /* Its arguments in a __constant__ variable, 64 words at a time. */
      uint32_t used = constant_extent(name, (size_t)(end - name), c3->base,
                                      c3->size);
      for (uint32_t w = 0; w * 512 < used; w++) {
        char wname[1100];
        snprintf(wname, sizeof wname, KKR_SASS_C3_NAME, fname, w);
        uint32_t n = used - w * 512 < 512 ? used - w * 512 : 512;
        analyze(wname, name, (size_t)(end - name), 3, c3->base + w * 512, n,
                cb, arg);
      }
    }
    p = next;
  }
}

/* A cubin's ELF header and section headers, checked to lie inside it:
 * *sh the sections, *shstr the section names' section; NULL if not. */
static const Elf64_Ehdr *cubin_sections(const void *cubin, size_t size,
                                        const Elf64_Shdr **sh,
                                        const Elf64_Shdr **shstr) {
  const unsigned char *b = cubin;
  if (size < sizeof(Elf64_Ehdr) || memcmp(b, ELFMAG, SELFMAG) ||
      b[EI_CLASS] != ELFCLASS64)
    return NULL;
  const Elf64_Ehdr *eh = cubin;
  if (eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > size ||
      eh->e_shstrndx >= eh->e_shnum)
    return NULL;
  *sh = (const Elf64_Shdr *)(b + eh->e_shoff);
  *shstr = &(*sh)[eh->e_shstrndx];
  if ((*shstr)->sh_offset + (*shstr)->sh_size > size)
    return NULL;
  return eh;
}

int kkr_sass_constant(const void *cubin, size_t size, const char *symbol,
                      uint32_t *base, uint32_t *bytes) {
  const unsigned char *b = cubin;
  const Elf64_Shdr *sh, *shstr;
  const Elf64_Ehdr *eh = cubin_sections(cubin, size, &sh, &shstr);
  if (!eh)
    return 0;
  for (uint32_t i = 0; i < eh->e_shnum; i++) {
    if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum ||
        sh[i].sh_offset + sh[i].sh_size > size)
      continue;
    const Elf64_Shdr *str = &sh[sh[i].sh_link];
    if (str->sh_offset + str->sh_size > size)
      continue;
    const Elf64_Sym *sym = (const Elf64_Sym *)(b + sh[i].sh_offset);
    size_t nsym = sh[i].sh_size / sizeof(Elf64_Sym);
    for (size_t k = 0; k < nsym; k++) {
      if (sym[k].st_name >= str->sh_size || sym[k].st_shndx >= eh->e_shnum)
        continue;
      const char *nm = (const char *)b + str->sh_offset + sym[k].st_name;
      const Elf64_Shdr *in = &sh[sym[k].st_shndx];
      if (strcmp(nm, symbol) || in->sh_name >= shstr->sh_size ||
          strcmp((const char *)b + shstr->sh_offset + in->sh_name,
                 ".nv.constant3"))
        continue;
      *base = (uint32_t)sym[k].st_value;
      *bytes = (uint32_t)sym[k].st_size;
      return 1;
    }
  }
  return 0;
}

/* EIATTR_PARAM_CBANK of each ".nv.info.<kernel>" section: where the
 * kernel's parameters lie in constant bank 0. */
uint32_t kkr_sass_banks(const void *cubin, size_t size, kkr_sass_bank *out,
                        uint32_t max) {
  const unsigned char *b = cubin;
  const Elf64_Shdr *sh, *strs;
  const Elf64_Ehdr *eh = cubin_sections(cubin, size, &sh, &strs);
  if (!eh)
    return 0;
  const char *names = (const char *)b + strs->sh_offset;
  uint32_t n = 0;
  for (uint32_t i = 0; i < eh->e_shnum && n < max; i++) {
    if (sh[i].sh_name >= strs->sh_size)
      continue;
    const char *sn = names + sh[i].sh_name;
    if (strncmp(sn, ".nv.info.", 9) || sh[i].sh_offset + sh[i].sh_size > size)
      continue;
    const unsigned char *a = b + sh[i].sh_offset, *end = a + sh[i].sh_size;
    while (a + 2 <= end) {
      unsigned fmt = a[0], attr = a[1];
      size_t len = 0;
      if (fmt == 0x04) { /* EIFMT_SVAL: a 16-bit length, then the value */
        if (a + 4 > end)
          break;
        len = (size_t)a[2] | (size_t)a[3] << 8;
        if (attr == 0x0a && len >= 8 && a + 4 + len <= end) { /* PARAM_CBANK */
          uint32_t v;
          memcpy(&v, a + 8, 4);
          snprintf(out[n].name, sizeof out[n].name, "%s", sn + 9);
          out[n].base = v & 0xffff;
          out[n].size = v >> 16;
          n++;
        }
        a += 4 + len;
      } else if (fmt == 0x03) { /* EIFMT_HVAL */
        a += 4;
      } else if (fmt == 0x02) { /* EIFMT_BVAL */
        a += 3;
      } else if (fmt == 0x01) { /* EIFMT_NVAL */
        a += 2;
      } else {
        break;
      }
    }
  }
  return n;
}

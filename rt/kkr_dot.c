/* The computation graph as a picture: with graph_path set, kkrace keeps the
 * edges it adds (program order, submissions, FIFO, fences, the Fig. 7 copy
 * rule) and the races it finds between nodes, and writes them in DOT at exit
 * (render with `dot -Tsvg`).  Host threads and instance queues are drawn as
 * columns; a race is a red dashed edge between the two nodes, labeled with
 * the View.  The graph kkrace checks is the same with or without this: only
 * the bookkeeping of edges is extra. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kkr_dot.h"
#include "kkr_report.h"

int kkr_dot_on;

typedef struct {
  uint32_t from, to;
  uint8_t kind;
  const char *label;
} dot_edge;

static kkr_spin dot_lock;
static dot_edge *edges;
static uint32_t nedges, capedges;
static uint32_t dropped;

void kkr_dot_init(void) {
  kkr_dot_on = kkr_flags.graph_path && *kkr_flags.graph_path;
  if (!kkr_dot_on)
    return;
  /* Fail now rather than at exit. */
  int fd = open(kkr_flags.graph_path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    kkr_die("cannot open graph_path file '%s' for writing: %s",
            kkr_flags.graph_path, strerror(errno));
  close(fd);
}

void kkr_dot_edge_slow(uint32_t from, uint32_t to, uint32_t kind,
                       const char *label) {
  if (!from || !to)
    return;
  kkr_spin_lock(&dot_lock);
  /* The same edge twice (a race found on many elements) is drawn once. */
  for (uint32_t i = nedges > 64 ? nedges - 64 : 0; i < nedges; i++)
    if (edges[i].from == from && edges[i].to == to && edges[i].kind == kind) {
      kkr_spin_unlock(&dot_lock);
      return;
    }
  if (nedges == (uint32_t)kkr_flags.graph_max_edges) {
    dropped++;
    kkr_spin_unlock(&dot_lock);
    return;
  }
  if (nedges == capedges) {
    uint32_t cap = capedges ? capedges * 2 : 256;
    edges = kkr_realloc(edges, capedges * sizeof *edges, cap * sizeof *edges);
    capedges = cap;
  }
  edges[nedges].from = from;
  edges[nedges].to = to;
  edges[nedges].kind = (uint8_t)kind;
  edges[nedges].label = label;
  nedges++;
  kkr_spin_unlock(&dot_lock);
}

/* DOT string contents: quotes and backslashes escaped. */
static void put_escaped(kkr_str *s, const char *p) {
  for (; *p; p++) {
    if (*p == '"' || *p == '\\')
      kkr_str_putc(s, '\\');
    kkr_str_putc(s, *p);
  }
}

static void node_label(kkr_str *s, uint32_t node) {
  kkr_str d = {0};
  kkr_describe_node_id(&d, node);
  put_escaped(s, d.buf ? d.buf : "?");
  kkr_str_free(&d);
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

void kkr_dot_write(void) {
  if (!kkr_dot_on)
    return;
  kkr_spin_lock(&dot_lock);
  /* The nodes that edges touch, sorted and unique. */
  uint32_t *nodes = kkr_alloc((2 * nedges + 1) * sizeof *nodes), nn = 0;
  for (uint32_t i = 0; i < nedges; i++) {
    nodes[nn++] = edges[i].from;
    nodes[nn++] = edges[i].to;
  }
  qsort(nodes, nn, sizeof *nodes, cmp_u32);
  uint32_t u = 0;
  for (uint32_t i = 0; i < nn; i++)
    if (!u || nodes[u - 1] != nodes[i])
      nodes[u++] = nodes[i];
  kkr_str s = {0};
  kkr_str_printf(&s, "// The computation graph of pid %d, drawn by kkrace.\n"
                     "// Render: dot -Tsvg %s -o graph.svg\n",
                 (int)getpid(), kkr_flags.graph_path);
  if (dropped)
    kkr_str_printf(&s, "// %u more edges were not kept (graph_max_edges)\n",
                   dropped);
  kkr_str_printf(&s, "digraph kkrace {\n  rankdir=TB;\n  newrank=true;\n"
                     "  node [shape=box, style=rounded, fontname=\"Helvetica\", "
                     "fontsize=10];\n  edge [fontname=\"Helvetica\", "
                     "fontsize=9];\n");
  /* One column per timeline: a host thread, or an instance's queue. */
  for (uint32_t i = 0; i < u;) {
    uint32_t tl = (uint32_t)kkr_nodes[nodes[i]] & 0xffff;
    kkr_timeline *t = kkr_timeline_get(tl);
    kkr_str_printf(&s, "  subgraph cluster_%u {\n    style=dashed; color=gray; "
                       "label=\"",
                   tl);
    if (t && t->kind == KKR_TL_HOST) {
      if (t->thread && t->thread->id)
        kkr_str_printf(&s, "thread T%u", t->thread->id);
      else
        kkr_str_printf(&s, "main thread");
    } else if (t && t->inst) {
      kkr_str_printf(&s, "%s instance %u", kkr_space_short(t->inst->space),
                     t->inst->index);
      if (t->thread && t->thread->id)
        kkr_str_printf(&s, " (from thread T%u)", t->thread->id);
    }
    kkr_str_printf(&s, "\";\n");
    for (uint32_t j = 0; j < u; j++) {
      if (((uint32_t)kkr_nodes[nodes[j]] & 0xffff) != tl)
        continue;
      uint32_t clk = (uint32_t)(kkr_nodes[nodes[j]] >> 16);
      int host = t && t->kind == KKR_TL_HOST;
      kkr_str_printf(&s, "    n%u [label=\"", nodes[j]);
      if (host)
        kkr_str_printf(&s, "host segment %u", clk);
      else
        node_label(&s, nodes[j]);
      kkr_str_printf(&s, "\"%s];\n",
                     host ? ", shape=ellipse" : ", style=\"rounded,filled\", "
                                                "fillcolor=\"#eef3fb\"");
    }
    kkr_str_printf(&s, "  }\n");
    /* Next timeline not yet drawn. */
    uint32_t next = i + 1;
    while (next < u) {
      uint32_t tn = (uint32_t)kkr_nodes[nodes[next]] & 0xffff;
      int seen = 0;
      for (uint32_t j = 0; j < next && !seen; j++)
        seen = ((uint32_t)kkr_nodes[nodes[j]] & 0xffff) == tn;
      if (!seen)
        break;
      next++;
    }
    i = next;
  }
  static const char *const styles[] = {
      [KKR_DOT_PROGRAM] = "color=gray40",
      [KKR_DOT_SUBMIT] = "color=\"#1f5fbf\", label=\"dispatch\"",
      [KKR_DOT_FIFO] = "color=\"#1f5fbf\", style=dashed, label=\"FIFO\"",
      [KKR_DOT_FENCE] = "color=\"#1a7f37\", penwidth=2, label=\"fence\"",
      [KKR_DOT_AFTER] = "color=\"#1a7f37\", style=dashed, label=\"Fence(Q)\"",
      [KKR_DOT_RACE] = ("color=red, fontcolor=red, style=dashed, dir=both, "
                        "constraint=false"),
      [KKR_DOT_SYNC] = "color=\"#8250df\", fontcolor=\"#8250df\"",
  };
  for (uint32_t i = 0; i < nedges; i++) {
    const dot_edge *e = &edges[i];
    kkr_str_printf(&s, "  n%u -> n%u [%s", e->from, e->to, styles[e->kind]);
    if (e->kind == KKR_DOT_SYNC && e->label) {
      kkr_str_printf(&s, ", label=\"");
      put_escaped(&s, e->label);
      kkr_str_printf(&s, "\"");
    }
    if (e->kind == KKR_DOT_RACE) {
      kkr_str_printf(&s, ", label=\"race");
      if (e->label) {
        kkr_str_printf(&s, " on ");
        put_escaped(&s, e->label);
      }
      kkr_str_printf(&s, "\"");
    }
    kkr_str_printf(&s, "];\n");
  }
  kkr_str_printf(&s, "}\n");
  kkr_spin_unlock(&dot_lock);
  int fd = open(kkr_flags.graph_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
                0644);
  if (fd < 0) {
    kkr_warn("cannot write graph_path file '%s': %s", kkr_flags.graph_path,
             strerror(errno));
  } else {
    kkr_write_all(fd, s.buf, s.len);
    close(fd);
  }
  kkr_str_free(&s);
  kkr_free(nodes, (2 * nedges + 1) * sizeof *nodes);
}

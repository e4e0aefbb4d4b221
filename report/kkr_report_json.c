/* JSON Lines: one object per report (REPORTS.md lists the required fields). */
#include <string.h>
#include <unistd.h>

#include "kkr_report.h"

static void json_string(kkr_str *s, const char *v) {
  if (!v) {
    kkr_str_printf(s, "null");
    return;
  }
  kkr_str_putc(s, '"');
  kkr_str_json(s, v);
  kkr_str_putc(s, '"');
}

static void json_stack(kkr_str *s, const kkr_sym_stack *st) {
  kkr_str_putc(s, '[');
  uint32_t max = (uint32_t)kkr_flags.max_stack_frames;
  for (uint32_t i = 0; i < st->n && i < max; i++) {
    const kkr_frame *f = &st->frames[i];
    if (i)
      kkr_str_putc(s, ',');
    kkr_str_printf(s, "{\"function\":");
    json_string(s, f->function);
    kkr_str_printf(s, ",\"file\":");
    json_string(s, f->file);
    kkr_str_printf(s, ",\"line\":%u,\"column\":%u,\"pc\":\"0x%lx\"", f->line,
                   f->column, (unsigned long)f->pc);
    if (f->module) {
      kkr_str_printf(s, ",\"module\":");
      json_string(s, f->module);
    }
    kkr_str_putc(s, '}');
  }
  kkr_str_putc(s, ']');
}

static void json_node(kkr_str *s, const kkr_node_info *n) {
  /* graph_node: the node's name in the graph_path picture. */
  kkr_str_printf(s, "{\"type\":\"%s\"", kkr_node_type_json(n));
  if (n->node)
    kkr_str_printf(s, ",\"graph_node\":\"n%u\"", n->node);
  if (n->type == KKR_NODE_HOST) {
    if (n->thread == 0)
      kkr_str_printf(s, ",\"thread\":\"main\"}");
    else
      kkr_str_printf(s, ",\"thread\":\"T%u\"}", n->thread);
    return;
  }
  if (n->type == KKR_NODE_MPI) {
    kkr_str_printf(s, ",\"call\":");
    json_string(s, n->item.label ? n->item.label : "");
  }
  kkr_str work = {0};
  if (n->type == KKR_NODE_MPI)
    kkr_str_printf(&work, "%s", n->item.label ? n->item.label : "");
  else if (n->type == KKR_NODE_COPY || n->type == KKR_NODE_FILL)
    kkr_describe_node(&work, n, 0);
  else
    kkr_str_printf(&work, "%s", n->item.label ? n->item.label : "");
  kkr_str_printf(s, ",\"work\":");
  json_string(s, work.buf ? work.buf : "");
  kkr_str_free(&work);
  kkr_str_printf(s, ",\"work_kind\":\"%s\",\"instance\":\"%s#%u\"",
                 kkr_work_kind(n), n->space ? n->space : "?", n->inst_index);
  if (n->type == KKR_NODE_GPU) {
    kkr_str st = {0};
    kkr_describe_stream(&st, n);
    kkr_str_printf(s, ",\"stream\":");
    json_string(s, st.buf ? st.buf : "");
    kkr_str_free(&st);
    if (n->item.gpu_conservative)
      kkr_str_printf(s, ",\"footprint\":\"conservative\"");
  }
  if (n->type == KKR_NODE_STRAND) {
    kkr_str idx = {0};
    if (n->nidx <= 1)
      kkr_str_printf(&idx, "%lld", (long long)n->idx[0]);
    else if (n->nidx == 2)
      kkr_str_printf(&idx, "%lld,%lld", (long long)n->idx[0],
                     (long long)n->idx[1]);
    else
      kkr_str_printf(&idx, "%lld,%lld,%lld", (long long)n->idx[0],
                     (long long)n->idx[1], (long long)n->idx[2]);
    kkr_str_printf(s, ",\"strand\":\"%s\",\"strand_kind\":\"%s\"", idx.buf,
                   n->nidx == 0 ? "team" : "iteration");
    if (!n->idx_exact)
      kkr_str_printf(s, ",\"strand_exact\":false");
    kkr_str md = {0};
    if (n->md_rank) { /* "i,j": as the strand's indices */
      kkr_describe_indices(&md, n->md_rank, n->md);
      md.buf[md.len - 1] = 0; /* (without the parentheses) */
    }
    if (n->team && n->sub && n->sub != KKR_TEAM_SINGLE && n->md_rank &&
        !n->lane)
      kkr_str_printf(s, ",\"nested\":\"%s\"", md.buf + 1);
    else if (n->team && n->sub && n->sub != KKR_TEAM_SINGLE && n->sub_idx >= 0)
      kkr_str_printf(s, ",\"nested\":%lld", (long long)n->sub_idx);
    if (n->lane && n->md_rank)
      kkr_str_printf(s, ",\"lane\":\"%s\"", md.buf + 1);
    else if (n->lane && n->lane_idx < 0)
      kkr_str_printf(s, ",\"lane\":\"several\"");
    else if (n->lane)
      kkr_str_printf(s, ",\"lane\":%lld", (long long)n->lane_idx);
    kkr_str_free(&md);
    kkr_str_free(&idx);
  }
  if (n->type == KKR_NODE_COPY) {
    kkr_str_printf(s, ",\"src\":");
    json_string(s, kkr_node_copy_label(n, 1));
    kkr_str_printf(s, ",\"dst\":");
    json_string(s, kkr_node_copy_label(n, 0));
  }
  if (n->thread == 0)
    kkr_str_printf(s, ",\"submitted_by\":\"main\"");
  else
    kkr_str_printf(s, ",\"submitted_by\":\"T%u\"", n->thread);
  /* Where the program called into Kokkos for it (an asynchronous copy's
   * own accesses are in Kokkos' code). */
  uint32_t np = 0;
  const uintptr_t *pcs = kkr_stack_get(n->item.stack, &np);
  if (pcs && np) {
    kkr_sym_stack st = {0};
    kkr_symbolize(pcs, np, 0, &st);
    kkr_stack_drop_kkrace(&st);
    kkr_stack_cut_after_main(&st);
    kkr_str_printf(s, ",\"submitted_at\":");
    json_stack(s, &st);
    kkr_free(st.frames, (st.n ? st.n : 1) * sizeof(kkr_frame));
  }
  kkr_str_putc(s, '}');
}

static const char *op_of(const kkr_access_info *a) {
  if (a->freed)
    return "free";
  return a->write ? "write" : "read";
}

void kkr_print_json(const kkr_report *r, kkr_str *s) {
  kkr_str_printf(s, "{\"kind\":\"%s\",\"subkind\":\"%s\",\"view\":",
                 kkr_report_kind_json[r->kind], r->subkind);
  json_string(s, r->has_view ? r->view.label : NULL);
  if (r->kind == KKR_REPORT_DATA_RACE) {
    const kkr_access_info *a = &r->acc[0];
    kkr_str_printf(s, ",\"address\":\"%p\",\"size\":%u", (void *)a->addr,
                   a->size);
    uint32_t esz = kkr_report_elem_size(r);
    if (esz && a->size) {
      kkr_str_printf(s, ",\"element\":%lu,\"elements\":%lu",
                     (unsigned long)((a->addr - r->view.lo) / esz),
                     kkr_report_view_elems(r, esz));
    } else {
      kkr_str_printf(s, ",\"location\":");
      json_string(s, r->location);
    }
  } else {
    kkr_str_printf(s, ",\"address\":null,\"size\":0");
  }
  /* fingerprint: the same pair of code locations in any run (the SARIF
   * partialFingerprints). */
  if (kkr_rank >= 0)
    kkr_str_printf(s, ",\"rank\":%d", kkr_rank);
  kkr_str_printf(s, ",\"count\":%llu,\"pid\":%d,\"fingerprint\":\"%016llx\","
                    "\"accesses\":[",
                 (unsigned long long)r->count, (int)getpid(),
                 (unsigned long long)r->fingerprint);
  for (uint32_t i = 0; i < r->nsteps; i++) {
    const kkr_access_info *a = &r->steps[i];
    if (i)
      kkr_str_putc(s, ',');
    kkr_str_printf(s, "{\"op\":\"%s\",\"what\":", kkr_step_op_json[a->write]);
    json_string(s, a->what);
    kkr_str_printf(s, ",\"node\":");
    json_node(s, &a->node);
    kkr_str_printf(s, ",\"stack\":");
    json_stack(s, &a->sym);
    kkr_str_putc(s, '}');
  }
  for (uint32_t i = 0; i < r->naccess; i++) {
    const kkr_access_info *a = &r->acc[i];
    if (i)
      kkr_str_putc(s, ',');
    if (r->kind == KKR_REPORT_DEADLOCK) {
      kkr_str_printf(s, "{\"op\":\"%s\",\"atomic\":false", r->op_name);
      if (r->detail) {
        /* The stack is the branch's; the collective is elsewhere. */
        kkr_str_printf(s, ",\"branch\":true,\"collective_at\":");
        json_string(s, r->detail);
      }
    } else {
      kkr_str_printf(s, "{\"op\":\"%s\",\"atomic\":%s,\"size\":%u", op_of(a),
                     a->atomic ? "true" : "false", a->size);
      if (a->call && a->node.type == KKR_NODE_HOST) {
        kkr_str_printf(s, ",\"call\":");
        json_string(s, a->call);
      }
    }
    kkr_str_printf(s, ",\"node\":");
    json_node(s, &a->node);
    kkr_str_printf(s, ",\"stack\":");
    json_stack(s, &a->sym);
    kkr_str_putc(s, '}');
  }
  kkr_str_printf(s, "],\"summary\":");
  kkr_str sum = {0};
  kkr_report_summary(&sum, r);
  json_string(s, sum.buf);
  kkr_str_free(&sum);
  kkr_str_putc(s, '}');
}

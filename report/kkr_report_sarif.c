/* SARIF 2.1.0: one log per run, one result per report, rules per kind and
 * subkind, locations relative to the working directory (%SRCROOT%). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "kkr_report.h"
#include "kkr_rules.h"

#ifndef KKRACE_VERSION
#define KKRACE_VERSION "0.1.0"
#endif

typedef struct {
  const char *id;
  const char *text;
} rule_desc;

/* Every rule kkrace can report, with what it means (kkr_rules.h). */
static const rule_desc rule_table[] = {
#define X(id, text) {id, text},
    KKR_RULES(X)
#undef X
};

static int rule_index(const kkr_report *r) {
  size_t n = strlen(kkr_report_kind_json[r->kind]);
  for (size_t i = 0; i < KKR_ARRAY_SIZE(rule_table); i++) {
    const char *rid = rule_table[i].id;
    if (!strncmp(rid, kkr_report_kind_json[r->kind], n) && rid[n] == '/' &&
        !strcmp(rid + n + 1, r->subkind))
      return (int)i;
  }
  return -1;
}

static void json_str(kkr_str *s, const char *v) {
  kkr_str_putc(s, '"');
  kkr_str_json(s, v ? v : "");
  kkr_str_putc(s, '"');
}

/* A location object; with a message, a related location (id 1). */
static void location(kkr_str *s, const kkr_frame *f, const char *message,
                     int id) {
  kkr_str_putc(s, '{');
  if (message) {
    kkr_str_printf(s, "\"id\":%d,\"message\":{\"text\":", id);
    json_str(s, message);
    kkr_str_printf(s, "},");
  }
  kkr_str_printf(s, "\"physicalLocation\":{\"artifactLocation\":{\"uri\":");
  if (f->file[0] == '/') {
    kkr_str uri = {0};
    kkr_str_printf(&uri, "file://%s", f->file);
    json_str(s, uri.buf);
    kkr_str_free(&uri);
    kkr_str_printf(s, "}");
  } else {
    json_str(s, f->file);
    kkr_str_printf(s, ",\"uriBaseId\":\"%%SRCROOT%%\"}");
  }
  kkr_str_printf(s, ",\"region\":{\"startLine\":%u", f->line ? f->line : 1);
  if (f->column)
    kkr_str_printf(s, ",\"startColumn\":%u", f->column);
  kkr_str_printf(s, "}}}"); /* region, physicalLocation, location */
}

void kkr_sarif_write(const char *path, kkr_report *const *reports,
                     uint32_t n) {
  kkr_str s = {0};
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd))
    strcpy(cwd, "/");
  kkr_str_printf(&s, "{\"$schema\":\"https://json.schemastore.org/"
                     "sarif-2.1.0.json\",\"version\":\"2.1.0\",\"runs\":[{");
  kkr_str_printf(&s, "\"tool\":{\"driver\":{\"name\":\"kkrace\",\"version\":"
                     "\"%s\",\"rules\":[",
                 KKRACE_VERSION);
  for (size_t i = 0; i < KKR_ARRAY_SIZE(rule_table); i++) {
    if (i)
      kkr_str_putc(&s, ',');
    kkr_str_printf(&s, "{\"id\":\"%s\",\"shortDescription\":{\"text\":",
                   rule_table[i].id);
    json_str(&s, rule_table[i].text);
    kkr_str_printf(&s, "},\"defaultConfiguration\":{\"level\":\"error\"}}");
  }
  kkr_str_printf(&s, "]}},\"originalUriBaseIds\":{\"%%SRCROOT%%\":{\"uri\":");
  kkr_str root = {0};
  kkr_str_printf(&root, "file://%s/", strcmp(cwd, "/") ? cwd : "");
  json_str(&s, root.buf);
  kkr_str_free(&root);
  kkr_str_printf(&s, "}},\"results\":[");
  for (uint32_t i = 0; i < n; i++) {
    const kkr_report *r = reports[i];
    if (i)
      kkr_str_putc(&s, ',');
    int ri = rule_index(r);
    kkr_str_printf(&s, "{\"ruleId\":\"%s/%s\",", kkr_report_kind_json[r->kind],
                   r->subkind);
    if (ri >= 0)
      kkr_str_printf(&s, "\"ruleIndex\":%d,", ri);
    kkr_str_printf(&s, "\"level\":\"error\",\"message\":{\"text\":");
    kkr_str sum = {0};
    kkr_report_summary(&sum, r);
    json_str(&s, sum.buf);
    kkr_str_free(&sum);
    kkr_str_printf(&s, "}");
    const kkr_frame *f0 = kkr_report_top_frame(
        r->nsteps ? &r->steps[0].sym : &r->acc[0].sym);
    if (f0 && f0->file) {
      kkr_str_printf(&s, ",\"locations\":[");
      location(&s, f0, NULL, 0);
      kkr_str_printf(&s, "]");
    }
    /* A deadlock of several steps: every step after the first is a related
     * location, with what happened there. */
    int nrel = 0;
    for (uint32_t k = 1; k < r->nsteps; k++) {
      const kkr_frame *fk = kkr_report_top_frame(&r->steps[k].sym);
      if (!fk || !fk->file)
        continue;
      kkr_str_printf(&s, nrel ? "," : ",\"relatedLocations\":[");
      location(&s, fk, r->steps[k].what, ++nrel);
    }
    if (nrel)
      kkr_str_printf(&s, "]");
    if (r->naccess > 1) {
      const kkr_frame *f1 = kkr_report_top_frame(&r->acc[1].sym);
      if (f1 && f1->file) {
        kkr_str what = {0};
        kkr_str_printf(&what, "the other access: %s by ",
                       r->acc[1].write ? "write" : "read");
        kkr_describe_node(&what, &r->acc[1].node, 1);
        kkr_str_printf(&s, ",\"relatedLocations\":[");
        location(&s, f1, what.buf, 1);
        kkr_str_printf(&s, "]");
        kkr_str_free(&what);
      }
    }
    kkr_str_printf(&s, ",\"partialFingerprints\":{\"kkraceLocationPair/v1\":"
                       "\"%016llx\"},\"properties\":{\"count\":%llu",
                   (unsigned long long)r->fingerprint, (unsigned long long)r->count);
    if (r->has_view) {
      kkr_str_printf(&s, ",\"view\":");
      json_str(&s, r->view.label);
    }
    kkr_str_printf(&s, "}}");
  }
  kkr_str_printf(&s, "]}]}\n");
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    kkr_warn("cannot write sarif_path file '%s': %s", path, strerror(errno));
  } else {
    kkr_write_all(fd, s.buf, s.len);
    close(fd);
  }
  kkr_str_free(&s);
}

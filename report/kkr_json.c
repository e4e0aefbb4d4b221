/* JSON parsing and writing for kkrace-report: see kkr_json.h. */
#include "kkr_json.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *s;
  size_t len, pos;
  kkr_json_error *err;
  int failed;
} parser;

static void fail(parser *p, size_t at, const char *fmt, ...) {
  if (p->failed)
    return;
  p->failed = 1;
  if (!p->err)
    return;
  p->err->offset = at;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->err->message, sizeof p->err->message, fmt, ap);
  va_end(ap);
}

/* What is at pos, for messages. */
static const char *what_at(parser *p) {
  if (p->pos >= p->len)
    return "the end of the text";
  unsigned char c = (unsigned char)p->s[p->pos];
  static char buf[32];
  if (c >= 0x21 && c < 0x7f)
    snprintf(buf, sizeof buf, "'%c'", c);
  else
    snprintf(buf, sizeof buf, "byte 0x%02x", c);
  return buf;
}

static void skip_ws(parser *p) {
  while (p->pos < p->len) {
    char c = p->s[p->pos];
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
      break;
    p->pos++;
  }
}

static kkr_json *new_value(parser *p, kkr_json_type t) {
  kkr_json *v = calloc(1, sizeof *v);
  if (!v)
    fail(p, p->pos, "out of memory");
  else
    v->type = t;
  return v;
}

/* A growing byte buffer. */
typedef struct {
  char *buf;
  size_t len, cap;
} bytes;

static int bytes_put(bytes *b, const char *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 32;
    while (cap < b->len + n + 1)
      cap *= 2;
    char *nb = realloc(b->buf, cap);
    if (!nb)
      return 0;
    b->buf = nb;
    b->cap = cap;
  }
  memcpy(b->buf + b->len, s, n);
  b->len += n;
  b->buf[b->len] = 0;
  return 1;
}

static size_t utf8_encode(uint32_t cp, char out[4]) {
  if (cp < 0x80) {
    out[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    out[0] = (char)(0xc0 | (cp >> 6));
    out[1] = (char)(0x80 | (cp & 0x3f));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = (char)(0xe0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
    out[2] = (char)(0x80 | (cp & 0x3f));
    return 3;
  }
  out[0] = (char)(0xf0 | (cp >> 18));
  out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
  out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
  out[3] = (char)(0x80 | (cp & 0x3f));
  return 4;
}

size_t kkr_utf8_decode(const unsigned char *s, size_t len, uint32_t *cp) {
  if (!len)
    return 0;
  unsigned char c = s[0];
  size_t n;
  uint32_t v, min;
  if (c < 0x80) {
    *cp = c;
    return 1;
  } else if ((c & 0xe0) == 0xc0) {
    n = 2, v = c & 0x1f, min = 0x80;
  } else if ((c & 0xf0) == 0xe0) {
    n = 3, v = c & 0x0f, min = 0x800;
  } else if ((c & 0xf8) == 0xf0) {
    n = 4, v = c & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (len < n)
    return 0;
  for (size_t i = 1; i < n; i++) {
    if ((s[i] & 0xc0) != 0x80)
      return 0;
    v = (v << 6) | (s[i] & 0x3f);
  }
  if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
    return 0;
  *cp = v;
  return n;
}

/* Four hex digits at pos; -1 if not. */
static long hex4(parser *p, size_t pos) {
  if (pos + 4 > p->len)
    return -1;
  long v = 0;
  for (size_t i = 0; i < 4; i++) {
    char c = p->s[pos + i];
    int d;
    if (c >= '0' && c <= '9')
      d = c - '0';
    else if (c >= 'a' && c <= 'f')
      d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      d = c - 'A' + 10;
    else
      return -1;
    v = v * 16 + d;
  }
  return v;
}

/* A string starting at the '"' at pos: its decoded bytes in *out. */
static int parse_string_raw(parser *p, bytes *out) {
  size_t start = p->pos;
  p->pos++; /* '"' */
  for (;;) {
    /* Copy the run of plain characters at once. */
    size_t run = p->pos;
    while (p->pos < p->len) {
      unsigned char c = (unsigned char)p->s[p->pos];
      if (c == '"' || c == '\\' || c < 0x20)
        break;
      p->pos++;
    }
    if (p->pos > run && !bytes_put(out, p->s + run, p->pos - run)) {
      fail(p, run, "out of memory");
      return 0;
    }
    if (p->pos >= p->len) {
      fail(p, start, "unterminated string");
      return 0;
    }
    unsigned char c = (unsigned char)p->s[p->pos];
    if (c == '"') {
      p->pos++;
      if (!out->buf && !bytes_put(out, "", 0)) {
        fail(p, start, "out of memory");
        return 0;
      }
      return 1;
    }
    if (c < 0x20) {
      fail(p, p->pos, "control character 0x%02x in a string (must be escaped)",
           c);
      return 0;
    }
    /* A backslash. */
    size_t esc = p->pos;
    if (p->pos + 1 >= p->len) {
      fail(p, start, "unterminated string");
      return 0;
    }
    char e = p->s[p->pos + 1];
    char one = 0;
    switch (e) {
    case '"': one = '"'; break;
    case '\\': one = '\\'; break;
    case '/': one = '/'; break;
    case 'b': one = '\b'; break;
    case 'f': one = '\f'; break;
    case 'n': one = '\n'; break;
    case 'r': one = '\r'; break;
    case 't': one = '\t'; break;
    case 'u': break;
    default:
      fail(p, esc, "invalid escape '\\%c' in a string",
           (e > 0x20 && e < 0x7f) ? e : '?');
      return 0;
    }
    if (e != 'u') {
      p->pos += 2;
      if (!bytes_put(out, &one, 1)) {
        fail(p, esc, "out of memory");
        return 0;
      }
      continue;
    }
    long u = hex4(p, p->pos + 2);
    if (u < 0) {
      fail(p, esc, "invalid \\u escape (four hex digits expected)");
      return 0;
    }
    p->pos += 6;
    uint32_t cp = (uint32_t)u;
    if (cp >= 0xdc00 && cp <= 0xdfff) {
      fail(p, esc, "invalid \\u escape: a low surrogate without a high one");
      return 0;
    }
    if (cp >= 0xd800 && cp <= 0xdbff) {
      long lo = -1;
      if (p->pos + 1 < p->len && p->s[p->pos] == '\\' && p->s[p->pos + 1] == 'u')
        lo = hex4(p, p->pos + 2);
      if (lo < 0xdc00 || lo > 0xdfff) {
        fail(p, esc, "invalid \\u escape: a high surrogate without a low one");
        return 0;
      }
      p->pos += 6;
      cp = 0x10000 + ((cp - 0xd800) << 10) + ((uint32_t)lo - 0xdc00);
    }
    char enc[4];
    size_t n = utf8_encode(cp, enc);
    if (!bytes_put(out, enc, n)) {
      fail(p, esc, "out of memory");
      return 0;
    }
  }
}

static kkr_json *parse_value(parser *p, int depth);

static kkr_json *parse_string(parser *p) {
  bytes b = {0};
  if (!parse_string_raw(p, &b)) {
    free(b.buf);
    return NULL;
  }
  kkr_json *v = new_value(p, KKR_JSON_STRING);
  if (!v) {
    free(b.buf);
    return NULL;
  }
  v->str = b.buf;
  v->len = b.len;
  return v;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static kkr_json *parse_number(parser *p) {
  size_t start = p->pos;
  const char *s = p->s;
  size_t i = p->pos;
  if (i < p->len && s[i] == '-')
    i++;
  if (i >= p->len || !is_digit(s[i])) {
    fail(p, start, "invalid number");
    return NULL;
  }
  if (s[i] == '0') {
    i++;
    if (i < p->len && is_digit(s[i])) {
      fail(p, start, "invalid number (leading zero)");
      return NULL;
    }
  } else {
    while (i < p->len && is_digit(s[i]))
      i++;
  }
  if (i < p->len && s[i] == '.') {
    i++;
    if (i >= p->len || !is_digit(s[i])) {
      fail(p, start, "invalid number (digits expected after '.')");
      return NULL;
    }
    while (i < p->len && is_digit(s[i]))
      i++;
  }
  if (i < p->len && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    if (i < p->len && (s[i] == '+' || s[i] == '-'))
      i++;
    if (i >= p->len || !is_digit(s[i])) {
      fail(p, start, "invalid number (digits expected in the exponent)");
      return NULL;
    }
    while (i < p->len && is_digit(s[i]))
      i++;
  }
  kkr_json *v = new_value(p, KKR_JSON_NUMBER);
  if (!v)
    return NULL;
  v->len = i - start;
  v->str = malloc(v->len + 1);
  if (!v->str) {
    free(v);
    fail(p, start, "out of memory");
    return NULL;
  }
  memcpy(v->str, s + start, v->len);
  v->str[v->len] = 0;
  v->num = strtod(v->str, NULL); /* the grammar was checked above */
  p->pos = i;
  return v;
}

/* Appends item (and key, for objects) to v; frees them on failure. */
static int append(parser *p, kkr_json *v, char *key, kkr_json *item,
                  size_t *cap) {
  if (v->n == *cap) {
    size_t nc = *cap ? *cap * 2 : 4;
    kkr_json **ni = realloc(v->items, nc * sizeof *ni);
    if (ni)
      v->items = ni;
    char **nk = NULL;
    if (ni && v->type == KKR_JSON_OBJECT) {
      nk = realloc(v->keys, nc * sizeof *nk);
      if (nk)
        v->keys = nk;
    }
    if (!ni || (v->type == KKR_JSON_OBJECT && !nk)) {
      fail(p, p->pos, "out of memory");
      free(key);
      kkr_json_free(item);
      return 0;
    }
    *cap = nc;
  }
  v->items[v->n] = item;
  if (v->type == KKR_JSON_OBJECT)
    v->keys[v->n] = key;
  v->n++;
  return 1;
}

static kkr_json *parse_array(parser *p, int depth) {
  kkr_json *v = new_value(p, KKR_JSON_ARRAY);
  if (!v)
    return NULL;
  size_t cap = 0;
  p->pos++; /* '[' */
  skip_ws(p);
  if (p->pos < p->len && p->s[p->pos] == ']') {
    p->pos++;
    return v;
  }
  for (;;) {
    kkr_json *item = parse_value(p, depth + 1);
    if (!item || !append(p, v, NULL, item, &cap))
      goto error;
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == ',') {
      p->pos++;
      continue;
    }
    if (p->pos < p->len && p->s[p->pos] == ']') {
      p->pos++;
      return v;
    }
    fail(p, p->pos, "expected ',' or ']' in an array, found %s", what_at(p));
    goto error;
  }
error:
  kkr_json_free(v);
  return NULL;
}

static kkr_json *parse_object(parser *p, int depth) {
  kkr_json *v = new_value(p, KKR_JSON_OBJECT);
  if (!v)
    return NULL;
  size_t cap = 0;
  p->pos++; /* '{' */
  skip_ws(p);
  if (p->pos < p->len && p->s[p->pos] == '}') {
    p->pos++;
    return v;
  }
  for (;;) {
    skip_ws(p);
    if (p->pos >= p->len || p->s[p->pos] != '"') {
      fail(p, p->pos, "expected a string key in an object, found %s",
           what_at(p));
      goto error;
    }
    bytes key = {0};
    if (!parse_string_raw(p, &key)) {
      free(key.buf);
      goto error;
    }
    skip_ws(p);
    if (p->pos >= p->len || p->s[p->pos] != ':') {
      fail(p, p->pos, "expected ':' after a key, found %s", what_at(p));
      free(key.buf);
      goto error;
    }
    p->pos++;
    kkr_json *item = parse_value(p, depth + 1);
    if (!item) {
      free(key.buf);
      goto error;
    }
    if (!append(p, v, key.buf, item, &cap))
      goto error;
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == ',') {
      p->pos++;
      continue;
    }
    if (p->pos < p->len && p->s[p->pos] == '}') {
      p->pos++;
      return v;
    }
    fail(p, p->pos, "expected ',' or '}' in an object, found %s", what_at(p));
    goto error;
  }
error:
  kkr_json_free(v);
  return NULL;
}

static kkr_json *parse_literal(parser *p, const char *word, kkr_json_type t) {
  size_t n = strlen(word);
  if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n)) {
    fail(p, p->pos, "expected a JSON value, found %s", what_at(p));
    return NULL;
  }
  p->pos += n;
  return new_value(p, t);
}

static kkr_json *parse_value(parser *p, int depth) {
  if (depth > KKR_JSON_MAX_DEPTH) {
    fail(p, p->pos, "nested more than %d deep", KKR_JSON_MAX_DEPTH);
    return NULL;
  }
  skip_ws(p);
  if (p->pos >= p->len) {
    fail(p, p->pos, "expected a JSON value, found the end of the text");
    return NULL;
  }
  switch (p->s[p->pos]) {
  case '{': return parse_object(p, depth);
  case '[': return parse_array(p, depth);
  case '"': return parse_string(p);
  case 't': return parse_literal(p, "true", KKR_JSON_TRUE);
  case 'f': return parse_literal(p, "false", KKR_JSON_FALSE);
  case 'n': return parse_literal(p, "null", KKR_JSON_NULL);
  default:
    if (p->s[p->pos] == '-' || is_digit(p->s[p->pos]))
      return parse_number(p);
    fail(p, p->pos, "expected a JSON value, found %s", what_at(p));
    return NULL;
  }
}

kkr_json *kkr_json_parse(const char *text, size_t len, kkr_json_error *err) {
  parser p = {text, len, 0, err, 0};
  if (err) {
    err->offset = 0;
    err->message[0] = 0;
  }
  kkr_json *v = parse_value(&p, 0);
  if (!v)
    return NULL;
  skip_ws(&p);
  if (p.pos < p.len) {
    fail(&p, p.pos, "unexpected %s after the JSON value", what_at(&p));
    kkr_json_free(v);
    return NULL;
  }
  return v;
}

void kkr_json_free(kkr_json *v) {
  if (!v)
    return;
  for (size_t i = 0; i < v->n; i++) {
    kkr_json_free(v->items[i]);
    if (v->keys)
      free(v->keys[i]);
  }
  free(v->items);
  free(v->keys);
  free(v->str);
  free(v);
}

kkr_json *kkr_json_get(const kkr_json *v, const char *key) {
  if (!v || v->type != KKR_JSON_OBJECT)
    return NULL;
  for (size_t i = 0; i < v->n; i++)
    if (!strcmp(v->keys[i], key))
      return v->items[i];
  return NULL;
}

const char *kkr_json_string(const kkr_json *v) {
  return v && v->type == KKR_JSON_STRING ? v->str : NULL;
}

/* The number's text is an integer (no fraction, no exponent). */
static int integer_text(const kkr_json *v) {
  return v && v->type == KKR_JSON_NUMBER && !strpbrk(v->str, ".eE");
}

int kkr_json_u64(const kkr_json *v, uint64_t *out) {
  if (!integer_text(v) || v->str[0] == '-')
    return 0;
  errno = 0;
  unsigned long long x = strtoull(v->str, NULL, 10);
  if (errno == ERANGE)
    return 0;
  *out = (uint64_t)x;
  return 1;
}

int kkr_json_i64(const kkr_json *v, int64_t *out) {
  if (!integer_text(v))
    return 0;
  errno = 0;
  long long x = strtoll(v->str, NULL, 10);
  if (errno == ERANGE)
    return 0;
  *out = (int64_t)x;
  return 1;
}

void kkr_json_write_string(FILE *f, const char *s, size_t len) {
  static const char hex[] = "0123456789abcdef";
  const unsigned char *u = (const unsigned char *)s;
  fputc('"', f);
  for (size_t i = 0; i < len;) {
    unsigned char c = u[i];
    if (c >= 0x80) {
      uint32_t cp;
      size_t n = kkr_utf8_decode(u + i, len - i, &cp);
      if (n) {
        fwrite(u + i, 1, n, f);
        i += n;
      } else {
        fputs("\\ufffd", f);
        i++;
      }
      continue;
    }
    switch (c) {
    case '"': fputs("\\\"", f); break;
    case '\\': fputs("\\\\", f); break;
    case '\n': fputs("\\n", f); break;
    case '\r': fputs("\\r", f); break;
    case '\t': fputs("\\t", f); break;
    case '\b': fputs("\\b", f); break;
    case '\f': fputs("\\f", f); break;
    default:
      if (c < 0x20) {
        fputs("\\u00", f);
        fputc(hex[c >> 4], f);
        fputc(hex[c & 15], f);
      } else {
        fputc(c, f);
      }
    }
    i++;
  }
  fputc('"', f);
}

void kkr_json_write(FILE *f, const kkr_json *v) {
  switch (v->type) {
  case KKR_JSON_NULL: fputs("null", f); break;
  case KKR_JSON_FALSE: fputs("false", f); break;
  case KKR_JSON_TRUE: fputs("true", f); break;
  case KKR_JSON_NUMBER: fputs(v->str, f); break;
  case KKR_JSON_STRING: kkr_json_write_string(f, v->str, v->len); break;
  case KKR_JSON_ARRAY:
    fputc('[', f);
    for (size_t i = 0; i < v->n; i++) {
      if (i)
        fputc(',', f);
      kkr_json_write(f, v->items[i]);
    }
    fputc(']', f);
    break;
  case KKR_JSON_OBJECT:
    fputc('{', f);
    for (size_t i = 0; i < v->n; i++) {
      if (i)
        fputc(',', f);
      kkr_json_write_string(f, v->keys[i], strlen(v->keys[i]));
      fputc(':', f);
      kkr_json_write(f, v->items[i]);
    }
    fputc('}', f);
    break;
  }
}

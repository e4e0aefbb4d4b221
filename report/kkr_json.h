/* A small JSON parser and writer for kkrace-report (RFC 8259): objects,
 * arrays, strings with every escape (\uXXXX, surrogate pairs included, to
 * UTF-8), numbers, true, false and null.  Parsing builds a tree of malloc'ed
 * values; errors give a message and the byte offset where parsing stopped.
 *
 * Bytes of 0x80 and above in strings are kept as they are (JSON text is
 * UTF-8, and kkrace's runtime copies file and function names verbatim); the
 * writer replaces invalid UTF-8 with U+FFFD, so that what it writes is
 * always valid JSON. */
#ifndef KKR_JSON_H
#define KKR_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum {
  KKR_JSON_NULL,
  KKR_JSON_FALSE,
  KKR_JSON_TRUE,
  KKR_JSON_NUMBER,
  KKR_JSON_STRING,
  KKR_JSON_ARRAY,
  KKR_JSON_OBJECT,
} kkr_json_type;

typedef struct kkr_json kkr_json;
struct kkr_json {
  kkr_json_type type;
  /* STRING: the decoded text; NUMBER: the number as written.  Always
   * NUL-terminated; a string may hold NUL bytes itself (\u0000): len
   * counts them. */
  char *str;
  size_t len;       /* STRING, NUMBER: bytes in str */
  double num;       /* NUMBER */
  size_t n;         /* ARRAY, OBJECT: members */
  kkr_json **items; /* ARRAY: the elements; OBJECT: the values */
  char **keys;      /* OBJECT: the keys, decoded, in the order written */
};

/* Where and why parsing failed. */
typedef struct {
  size_t offset; /* bytes from the start of the text */
  char message[96];
} kkr_json_error;

/* Nesting deeper than this is an error (the parser recurses). */
#define KKR_JSON_MAX_DEPTH 512

/* Parses text[0, len) as one JSON value, with white space around it and
 * nothing else.  Returns NULL and fills *err on error (also out of memory). */
kkr_json *kkr_json_parse(const char *text, size_t len, kkr_json_error *err);
void kkr_json_free(kkr_json *v);

/* The value of key in an object (the first one if written twice), or NULL
 * when v is not an object or has no such key. */
kkr_json *kkr_json_get(const kkr_json *v, const char *key);
/* v's text if v is a string, else NULL. */
const char *kkr_json_string(const kkr_json *v);
/* 1 and *out if v is an integer number in [0, 2^64). */
int kkr_json_u64(const kkr_json *v, uint64_t *out);
/* 1 and *out if v is an integer number in int64_t's range. */
int kkr_json_i64(const kkr_json *v, int64_t *out);

/* Writing.  Strings are escaped; invalid UTF-8 becomes U+FFFD. */
void kkr_json_write(FILE *f, const kkr_json *v);
void kkr_json_write_string(FILE *f, const char *s, size_t len);
/* Decodes one UTF-8 sequence at s[0, len): returns its length (1 to 4) and
 * the code point in *cp, or 0 when it is not valid UTF-8 (overlong forms,
 * surrogates and values above U+10FFFF are not). */
size_t kkr_utf8_decode(const unsigned char *s, size_t len, uint32_t *cp);

#endif /* KKR_JSON_H */

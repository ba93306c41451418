/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The output layer: the one writer of sparkperf-ctl's standard output. Data
 * goes to the stream given to sp_print_init() (stdout in the tool, a
 * memstream in the unit tests), as text or as JSON built with json-c.
 *
 * A list of records (a "show") is written with one call per field that
 * names its JSON key and its text column together, so the two cannot
 * drift (iproute2's print_*(PRINT_ANY, ...)): in text the list is a table,
 * columns two blanks apart, each as wide as its widest cell; in JSON it is
 * an array of objects. Where text and JSON differ in shape (a sentence, a
 * tree), the object's printer builds each with the helpers below.
 */
#ifndef SPARKPERF_CTL_LIB_PRINT_H
#define SPARKPERF_CTL_LIB_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <json-c/json.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* out == NULL: stdout. pretty implies JSON. */
void sp_print_init(FILE *out, bool json, bool pretty);
bool sp_print_is_json(void);
/* The stream output goes to. */
FILE *sp_print_file(void);

/* Free text (help screens, sentences). */
void sp_print_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Flushes the output: 0, or the write error as -errno. */
int sp_print_flush(void);

/*
 * Prints a JSON document (pretty when asked for) and a newline, and
 * releases it. 0; -ENOMEM for obj == NULL (a failed allocation).
 */
int sp_print_json(json_object *obj);
/* The same, compact on one line even with -p (JSON lines: events, watch). */
int sp_print_json_line(json_object *obj);

/* ---- JSON values: each NULL (JSON null) when the value is absent ---- */

/* obj[key] = val; val NULL is a JSON null. */
void sp_json_add(json_object *obj, const char *key, json_object *val);
json_object *sp_json_str_or_null(const char *s);
/* The string member key of obj (which may be NULL); NULL if absent or not a string. */
const char *sp_json_get_str(json_object *obj, const char *key);
json_object *sp_json_u64(uint64_t v);
json_object *sp_json_u32_or_null(bool has, uint32_t v);
/* A number written with exactly `decimals` decimals: 9.870123 */
json_object *sp_json_fixed(double v, int decimals);
/* A number of ns with three decimals: 1470.125 */
json_object *sp_json_ns3(long double ns);
/* A measured number, ten significant digits; null when not finite. */
json_object *sp_json_num(double v);
/* A data rate given in bit/s, as Gbit/s to the bit/s: 71.000125, 200.0 */
json_object *sp_json_gbit_per_s(double bit_per_s);

/*
 * An array of n items, item(items, i) making each; NULL when any
 * allocation failed (everything made so far released).
 */
json_object *sp_json_array(const void *items, size_t n,
			   json_object *(*item)(const void *items, size_t i));

/* A JSON object that fill() fills from item; NULL when out of memory. */
json_object *sp_json_object(void (*fill)(json_object *o, const void *item), const void *item);
/* An array of such an object for each of the n items (size bytes each). */
json_object *sp_json_objects(const void *items, size_t n, size_t size,
			     void (*fill)(json_object *o, const void *item));

/* ---- text ---- */

/* A malloc'ed string; NULL on failure. */
char *sp_xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * A table of nrows data rows under a header of ncols names, columns two
 * blanks apart, each as wide as its widest cell: fill(rows, row, col)
 * returns a malloc'ed cell. Nothing for nrows == 0. 0 or -ENOMEM.
 */
int sp_print_table(const char *const *header, size_t ncols, size_t nrows,
		   char *(*fill)(const void *rows, size_t row, size_t col), const void *rows);

/*
 * Columns of fixed widths, so that each row can be printed as its results
 * come: each column as wide as its name or its width, whichever is more,
 * two blanks apart; a wider cell pushes the rest of its row.
 */
#define SP_CELL_MAX 64

struct sp_fixed_col {
	const char *name;
	int width;
};

/* One row (cell == NULL: the names); tail, when not NULL, after the last column. */
void sp_print_fixed(const struct sp_fixed_col *cols, size_t n, char (*cell)[SP_CELL_MAX],
		    const char *tail);

/* ---- rows: one call per field for text and JSON ---- */

struct sp_rows;

/*
 * Begins rows (a table in text, an array in JSON); at most SP_ROWS_COLS
 * columns. Every record starts with sp_row(), then its fields in column
 * order; the first record's fields name the columns. NULL only when out of
 * memory (every call below takes NULL and sp_rows_end() then returns
 * -ENOMEM).
 */
#define SP_ROWS_COLS 16
struct sp_rows *sp_rows_begin(void);
void sp_row(struct sp_rows *l);

/*
 * One field: key is its JSON key (NULL: text only), col its column name
 * (NULL: JSON only); jval its JSON value (NULL: null; taken over), text its
 * cell (taken over; NULL: out of memory).
 */
void sp_field(struct sp_rows *l, const char *key, const char *col,
	      json_object *jval, char *text);
/* The common shapes of a field. */
void sp_field_u64(struct sp_rows *l, const char *key, const char *col, uint64_t v);
/* s NULL: JSON null, text "-". */
void sp_field_str(struct sp_rows *l, const char *key, const char *col, const char *s);

/*
 * Prints the rows (text: nothing for none; JSON: an array, [] for none) and releases it. 0 or -ENOMEM.
 */
int sp_rows_end(struct sp_rows *l);

/*
 * The same for rows that are one member of a JSON document: JSON, obj
 * with the array under key, printed and released; text, the table alone
 * (obj, which text needs not build, released). 0 or -ENOMEM (obj NULL in
 * JSON, or the rows out of memory).
 */
int sp_rows_end_into(struct sp_rows *l, json_object *obj, const char *key);

#endif

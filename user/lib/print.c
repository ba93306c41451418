// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print.h"

static struct {
	FILE *f;
	bool json;
	bool pretty;
} out;

FILE *sp_print_file(void)
{
	return out.f ? out.f : stdout;
}

void sp_print_init(FILE *f, bool json, bool pretty)
{
	out.f = f;
	out.json = json || pretty;
	out.pretty = pretty;
}

bool sp_print_is_json(void)
{
	return out.json;
}

void sp_print_text(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(sp_print_file(), fmt, ap);
	va_end(ap);
}

int sp_print_flush(void)
{
	FILE *f = sp_print_file();

	if (fflush(f) || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}

static int emit_json(json_object *obj, bool pretty)
{
	int flags = JSON_C_TO_STRING_NOSLASHESCAPE;
	const char *s;

	if (!obj)
		return -ENOMEM;
	flags |= pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED
			    : JSON_C_TO_STRING_PLAIN;
	s = json_object_to_json_string_ext(obj, flags);
	if (!s) {
		json_object_put(obj);
		return -ENOMEM;
	}
	fprintf(sp_print_file(), "%s\n", s);
	json_object_put(obj);
	return 0;
}

int sp_print_json(json_object *obj)
{
	return emit_json(obj, out.pretty);
}

int sp_print_json_line(json_object *obj)
{
	return emit_json(obj, false);
}

/* ---- JSON values ---- */

void sp_json_add(json_object *obj, const char *key, json_object *val)
{
	json_object_object_add(obj, key, val);
}

const char *sp_json_get_str(json_object *obj, const char *key)
{
	json_object *v;

	if (!obj || !json_object_object_get_ex(obj, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

json_object *sp_json_str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

json_object *sp_json_u64(uint64_t v)
{
	return json_object_new_uint64(v);
}

json_object *sp_json_u32_or_null(bool has, uint32_t v)
{
	return has ? json_object_new_int64(v) : NULL;
}

/* The number from its decimal text, so that JSON shows those digits. */
static json_object *json_from_text(double v, const char *num)
{
	return json_object_new_double_s(v, num);
}

json_object *sp_json_fixed(double v, int decimals)
{
	char num[64];

	snprintf(num, sizeof(num), "%.*f", decimals, v);
	return json_from_text(v, num);
}

json_object *sp_json_ns3(long double ns)
{
	char num[64];

	snprintf(num, sizeof(num), "%.3Lf", ns);
	return json_from_text((double)ns, num);
}

json_object *sp_json_num(double v)
{
	char num[64];

	if (!isfinite(v))
		return NULL;
	snprintf(num, sizeof(num), "%.10g", v);
	return json_from_text(v, num);
}

json_object *sp_json_gbit_per_s(double bit_per_s)
{
	double v = bit_per_s / 1e9;
	char num[64];
	int n;

	n = snprintf(num, sizeof(num), "%.9f", v);
	if (!isfinite(v) || n >= (int)sizeof(num))
		return sp_json_num(v);
	/* the zeros past the bit/s say nothing: 200.0, 0.0712 */
	while (num[n - 1] == '0' && num[n - 2] != '.')
		num[--n] = '\0';
	return json_from_text(v, num);
}

json_object *sp_json_array(const void *items, size_t n,
			   json_object *(*item)(const void *items, size_t i))
{
	json_object *arr = json_object_new_array();
	size_t i;

	for (i = 0; arr && i < n; i++) {
		json_object *o = item(items, i);

		if (!o || json_object_array_add(arr, o)) {
			json_object_put(o);
			json_object_put(arr);
			return NULL;
		}
	}
	return arr;
}

json_object *sp_json_object(void (*fill)(json_object *o, const void *item), const void *item)
{
	json_object *o = json_object_new_object();

	if (o)
		fill(o, item);
	return o;
}

struct json_objects {
	const char *items;
	size_t size;
	void (*fill)(json_object *o, const void *item);
};

static json_object *json_objects_item(const void *arg, size_t i)
{
	const struct json_objects *a = arg;

	return sp_json_object(a->fill, a->items + i * a->size);
}

json_object *sp_json_objects(const void *items, size_t n, size_t size,
			     void (*fill)(json_object *o, const void *item))
{
	struct json_objects a = { items, size, fill };

	return sp_json_array(&a, n, json_objects_item);
}

/* ---- text ---- */

char *sp_xprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int ret;

	va_start(ap, fmt);
	ret = vasprintf(&s, fmt, ap);
	va_end(ap);
	return ret < 0 ? NULL : s;
}

/* cells[row * stride + col], row 0 the header */
static void print_cells(char *const *cells, size_t nrows, size_t ncols, size_t stride)
{
	size_t width[SP_ROWS_COLS] = { 0 }, r, c;
	FILE *f = sp_print_file();

	for (c = 0; c < ncols && c < ARRAY_SIZE(width); c++)
		for (r = 0; r < nrows; r++)
			if (strlen(cells[r * stride + c]) > width[c])
				width[c] = strlen(cells[r * stride + c]);
	for (r = 0; r < nrows; r++) {
		for (c = 0; c + 1 < ncols; c++)
			fprintf(f, "%-*s  ", (int)width[c], cells[r * stride + c]);
		fprintf(f, "%s\n", cells[r * stride + ncols - 1]);
	}
}

static void free_cells(char **cells, size_t n)
{
	size_t i;

	for (i = 0; cells && i < n; i++)
		free(cells[i]);
	free(cells);
}

int sp_print_table(const char *const *header, size_t ncols, size_t nrows,
		   char *(*fill)(const void *rows, size_t row, size_t col), const void *rows)
{
	size_t n = (nrows + 1) * ncols, r, c;
	char **cells;
	int ret = 0;

	if (!nrows)
		return 0;
	cells = calloc(n, sizeof(*cells));
	if (!cells)
		return -ENOMEM;
	for (c = 0; c < ncols; c++)
		cells[c] = strdup(header[c]);
	for (r = 0; r < nrows; r++)
		for (c = 0; c < ncols; c++)
			cells[(r + 1) * ncols + c] = fill(rows, r, c);
	for (r = 0; r < n; r++)
		if (!cells[r])
			ret = -ENOMEM;
	if (!ret)
		print_cells(cells, nrows + 1, ncols, ncols);
	free_cells(cells, n);
	return ret;
}

void sp_print_fixed(const struct sp_fixed_col *cols, size_t n, char (*cell)[SP_CELL_MAX],
		    const char *tail)
{
	FILE *f = sp_print_file();
	size_t i;
	int w;

	for (i = 0; i < n; i++) {
		const char *c = cell ? cell[i] : cols[i].name;

		w = (int)strlen(cols[i].name);
		if (cols[i].width > w)
			w = cols[i].width;
		if (i + 1 < n || tail)
			fprintf(f, "%-*s  ", w, c);
		else
			fprintf(f, "%s\n", c);
	}
	if (tail)
		fprintf(f, "%s\n", tail);
}

/* ---- lists ---- */

struct sp_rows {
	bool failed;
	json_object *arr;	/* JSON: the records */
	json_object *rec;	/* JSON: the record being filled */
	char **cells;		/* text: [row * SP_ROWS_COLS + col], row 0 the names */
	size_t nrows;		/* text: rows begun, the names' included */
	size_t ncols;		/* text: the first record's fields */
	size_t col;		/* text: the next column of the last row */
};

struct sp_rows *sp_rows_begin(void)
{
	struct sp_rows *l = calloc(1, sizeof(*l));

	if (l && out.json && !(l->arr = json_object_new_array())) {
		free(l);
		return NULL;
	}
	return l;
}

/* Closes the last record: JSON, into the array; text, blank missing cells. */
static void rows_close_record(struct sp_rows *l)
{
	if (out.json) {
		if (l->rec && json_object_array_add(l->arr, l->rec)) {
			json_object_put(l->rec);
			l->failed = true;
		}
		l->rec = NULL;
		return;
	}
	if (l->nrows == 2)
		l->ncols = l->col;
	for (; l->nrows > 2 && l->col < l->ncols; l->col++)
		if (!(l->cells[(l->nrows - 1) * SP_ROWS_COLS + l->col] = strdup("")))
			l->failed = true;
}

void sp_row(struct sp_rows *l)
{
	size_t add = 0;
	char **cells;

	if (!l || l->failed)
		return;
	rows_close_record(l);
	if (out.json) {
		l->rec = json_object_new_object();
		l->failed = !l->rec;
		return;
	}
	add = l->nrows ? 1 : 2;
	cells = realloc(l->cells, (l->nrows + add) * SP_ROWS_COLS * sizeof(*cells));
	if (!cells) {
		l->failed = true;
		return;
	}
	memset(cells + l->nrows * SP_ROWS_COLS, 0, add * SP_ROWS_COLS * sizeof(*cells));
	l->cells = cells;
	l->nrows += add;
	l->col = 0;
}

void sp_field(struct sp_rows *l, const char *key, const char *col,
	      json_object *jval, char *text)
{
	size_t row;

	if (!l || l->failed || (out.json ? !l->rec : !l->nrows)) {
		json_object_put(jval);
		free(text);
		if (l)
			l->failed = true;
		return;
	}
	if (out.json) {
		free(text);
		if (key)
			sp_json_add(l->rec, key, jval);
		else
			json_object_put(jval);
		return;
	}
	json_object_put(jval);
	if (!col) {
		free(text);
		return;
	}
	row = l->nrows - 1;
	if (!text || l->col >= SP_ROWS_COLS || (row > 1 && l->col >= l->ncols)) {
		free(text);
		l->failed = true;
		return;
	}
	if (row == 1 && !(l->cells[l->col] = strdup(col)))
		l->failed = true;
	l->cells[row * SP_ROWS_COLS + l->col++] = text;
}

void sp_field_u64(struct sp_rows *l, const char *key, const char *col, uint64_t v)
{
	sp_field(l, key, col, json_object_new_uint64(v), sp_xprintf("%" PRIu64, v));
}

void sp_field_str(struct sp_rows *l, const char *key, const char *col, const char *s)
{
	sp_field(l, key, col, sp_json_str_or_null(s), strdup(s ? s : "-"));
}

/* JSON: the rows' array, their last record closed; NULL if any of it failed. l is released. */
static json_object *rows_take_array(struct sp_rows *l)
{
	json_object *arr = NULL;

	if (!l)
		return NULL;
	if (!l->failed && l->rec)
		rows_close_record(l);
	if (!l->failed) {
		arr = l->arr;
	} else {
		json_object_put(l->rec);
		json_object_put(l->arr);
	}
	free(l);
	return arr;
}

int sp_rows_end(struct sp_rows *l)
{
	int ret = 0;

	if (out.json)
		return sp_print_json(rows_take_array(l));
	if (!l)
		return -ENOMEM;
	if (!l->failed && l->nrows)
		rows_close_record(l);
	if (l->failed)
		ret = -ENOMEM;
	else if (l->nrows && l->ncols)
		print_cells(l->cells, l->nrows, l->ncols, SP_ROWS_COLS);
	free_cells(l->cells, l->nrows * SP_ROWS_COLS);
	free(l);
	return ret;
}

int sp_rows_end_into(struct sp_rows *l, json_object *obj, const char *key)
{
	json_object *arr;

	if (!out.json) {
		json_object_put(obj);
		return sp_rows_end(l);
	}
	arr = rows_take_array(l);
	if (!obj || !arr) {
		json_object_put(obj);
		json_object_put(arr);
		return -ENOMEM;
	}
	sp_json_add(obj, key, arr);
	return sp_print_json(obj);
}

/* colstats: computes per-column numeric statistics of CSV on stdin, with caller-chosen space and record-terminator characters, and reports how libcsv's field buffer grew (block size, reallocations, frees). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <csv.h>

static unsigned char space_set[256];
static unsigned char term_set[256];
static size_t realloc_calls, last_request, free_calls;

static int is_space(unsigned char c) { return space_set[c]; }
static int is_term(unsigned char c) { return term_set[c]; }

static void *counting_realloc(void *ptr, size_t size)
{
    realloc_calls++;
    last_request = size;
    return realloc(ptr, size);
}

static void counting_free(void *ptr)
{
    free_calls++;
    free(ptr);
}

struct column {
    size_t values, numeric;
    double sum, min, max;
};

struct stats {
    struct column *cols;
    size_t ncols, cap;
    size_t col, rows, longest;
};

static int is_number(const char *s, size_t n)
{
    size_t i = 0, digits = 0;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        i++;
    while (i < n && s[i] >= '0' && s[i] <= '9') { i++; digits++; }
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && s[i] >= '0' && s[i] <= '9') { i++; digits++; }
    }
    if (digits == 0)
        return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1, ed = 0;
        if (j < n && (s[j] == '+' || s[j] == '-'))
            j++;
        while (j < n && s[j] >= '0' && s[j] <= '9') { j++; ed++; }
        if (ed == 0)
            return 0;
        i = j;
    }
    return i == n;
}

static void on_field(void *s, size_t len, void *data)
{
    struct stats *st = data;
    if (st->col == st->ncols) {
        if (st->ncols == st->cap) {
            st->cap = st->cap ? st->cap * 2 : 8;
            st->cols = realloc(st->cols, st->cap * sizeof *st->cols);
        }
        memset(&st->cols[st->ncols], 0, sizeof *st->cols);
        st->ncols++;
    }
    struct column *c = &st->cols[st->col++];
    c->values++;
    if (len > st->longest)
        st->longest = len;
    if (len > 0 && len < 64 && is_number(s, len)) {
        char tmp[64];
        memcpy(tmp, s, len);
        tmp[len] = '\0';
        double v = strtod(tmp, NULL);
        if (c->numeric == 0 || v < c->min)
            c->min = v;
        if (c->numeric == 0 || v > c->max)
            c->max = v;
        c->sum += v;
        c->numeric++;
    }
}

static void on_row(int c, void *data)
{
    struct stats *st = data;
    (void)c;
    st->rows++;
    st->col = 0;
}

static int fill_set(unsigned char *set, const char *spec)
{
    if (strcmp(spec, "default") == 0)
        return 0;
    if (*spec == '\0')
        return -1;
    for (const unsigned char *u = (const unsigned char *)spec; *u; u++)
        set[*u] = 1;
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s BLOCK_SIZE SPACES|default TERMINATORS|default\n", argv[0]);
        return 2;
    }
    char *end;
    long blk = strtol(argv[1], &end, 10);
    if (*argv[1] == '\0' || *end != '\0' || blk < 0 || blk > 1048576) {
        printf("error: invalid block size '%s'\n", argv[1]);
        return 0;
    }
    int custom_space = fill_set(space_set, argv[2]);
    int custom_term = fill_set(term_set, argv[3]);
    if (custom_space < 0 || custom_term < 0) {
        printf("error: empty character set\n");
        return 0;
    }

    struct csv_parser p;
    if (csv_init(&p, 0) != 0) {
        printf("error: csv_init failed\n");
        return 0;
    }
    csv_set_space_func(&p, custom_space ? is_space : NULL);
    csv_set_term_func(&p, custom_term ? is_term : NULL);
    csv_set_realloc_func(&p, counting_realloc);
    csv_set_free_func(&p, counting_free);
    csv_set_blk_size(&p, (size_t)blk);

    size_t cap = 4096, len = 0, got;
    char *data = malloc(cap);
    while ((got = fread(data + len, 1, cap - len, stdin)) > 0) {
        len += got;
        if (len == cap) {
            cap *= 2;
            data = realloc(data, cap);
        }
    }

    struct stats st = {NULL, 0, 0, 0, 0, 0};
    size_t done = csv_parse(&p, data, len, on_field, on_row, &st);
    if (done != len) {
        printf("error: parser stopped at byte %zu of %zu (buffer %zu bytes, %zu reallocs)\n", done, len,
               csv_get_buffer_size(&p), realloc_calls);
    } else {
        csv_fini(&p, on_field, on_row, &st);
        printf("rows: %zu, columns: %zu, longest field: %zu bytes\n", st.rows, st.ncols, st.longest);
        for (size_t i = 0; i < st.ncols; i++) {
            struct column *c = &st.cols[i];
            printf("col %zu: %zu values, %zu numeric", i + 1, c->values, c->numeric);
            if (c->numeric)
                printf(", sum %.6f, min %.6f, max %.6f, mean %.6f", c->sum, c->min, c->max,
                       c->sum / (double)c->numeric);
            putchar('\n');
        }
        printf("buffer: %zu bytes, block %ld, %zu reallocs, last request %zu\n", csv_get_buffer_size(&p), blk,
               realloc_calls, last_request);
    }
    csv_free(&p);
    printf("frees: %zu, buffer after free: %zu\n", free_calls, csv_get_buffer_size(&p));
    free(st.cols);
    free(data);
    return 0;
}

/* csvcheck: parses CSV from stdin with the libcsv options named on the command line (strict, strict_fini, repall_nl, empty_is_null, append_null), lists every record and reports the first parse error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <csv.h>

struct state {
    size_t rows;
    size_t fields;
    size_t in_row;
    int line_open;
};

static void show(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        if (c == '\\' || c == ']')
            printf("\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            printf("\\x%02x", c);
        else
            putchar(c);
    }
}

static void on_field(void *s, size_t len, void *data)
{
    struct state *st = data;
    if (!st->line_open) {
        printf("row %zu:", st->rows + 1);
        st->line_open = 1;
    }
    if (s == NULL)
        printf(" <null>");
    else {
        printf(" [");
        show(s, len);
        putchar(']');
    }
    st->fields++;
    st->in_row++;
}

static void on_row(int c, void *data)
{
    struct state *st = data;
    if (!st->line_open)
        printf("row %zu:", st->rows + 1);
    const char *why = c == -1 ? "end of input" : c == '\n' ? "LF" : c == '\r' ? "CR" : "other";
    printf(" (%zu field%s, ended by %s)\n", st->in_row, st->in_row == 1 ? "" : "s", why);
    st->rows++;
    st->in_row = 0;
    st->line_open = 0;
}

int main(int argc, char **argv)
{
    static const struct { const char *name; unsigned char bit; } names[] = {
        {"strict", CSV_STRICT}, {"repall_nl", CSV_REPALL_NL}, {"strict_fini", CSV_STRICT_FINI},
        {"append_null", CSV_APPEND_NULL}, {"empty_is_null", CSV_EMPTY_IS_NULL},
    };
    unsigned char opts = 0;
    for (int i = 1; i < argc; i++) {
        size_t k;
        for (k = 0; k < sizeof names / sizeof names[0]; k++)
            if (strcmp(argv[i], names[k].name) == 0)
                break;
        if (k == sizeof names / sizeof names[0]) {
            printf("error: unknown option '%s'\n", argv[i]);
            return 0;
        }
        opts |= names[k].bit;
    }

    struct csv_parser p;
    if (csv_init(&p, 0) != 0) {
        printf("error: csv_init failed\n");
        return 0;
    }
    csv_set_opts(&p, opts);
    printf("options: 0x%02x\n", csv_get_opts(&p));

    size_t cap = 4096, len = 0, got;
    char *data = malloc(cap);
    while ((got = fread(data + len, 1, cap - len, stdin)) > 0) {
        len += got;
        if (len == cap) {
            cap *= 2;
            data = realloc(data, cap);
        }
    }

    struct state st = {0, 0, 0, 0};
    size_t done = csv_parse(&p, data, len, on_field, on_row, &st);
    if (done < len) {
        if (st.line_open)
            printf(" ...\n");
        printf("error: %s at byte %zu (status %d)\n", csv_strerror(csv_error(&p)), done, csv_error(&p));
        csv_free(&p);
        free(data);
        return 0;
    }
    if (csv_fini(&p, on_field, on_row, &st) != 0) {
        if (st.line_open)
            printf(" ...\n");
        printf("error: %s at end of input (status %d)\n", csv_strerror(csv_error(&p)), csv_error(&p));
        csv_free(&p);
        free(data);
        return 0;
    }
    printf("ok: %zu rows, %zu fields, %zu bytes\n", st.rows, st.fields, len);
    csv_free(&p);
    free(data);
    return 0;
}

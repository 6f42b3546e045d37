/* csvconv: converts CSV on stdin from one dialect (delimiter, quote) to another, quoting output fields only when needed, using libcsv's parser (optionally strict) and csv_write2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <csv.h>

struct out {
    unsigned char delim;
    unsigned char quote;
    size_t rows;
    size_t fields;
    size_t quoted;
    size_t in_row;
};

static int parse_char(const char *s, unsigned char *c)
{
    if (strcmp(s, "tab") == 0) { *c = '\t'; return 0; }
    if (strcmp(s, "space") == 0) { *c = ' '; return 0; }
    if (strcmp(s, "comma") == 0) { *c = ','; return 0; }
    if (strcmp(s, "semicolon") == 0) { *c = ';'; return 0; }
    if (strcmp(s, "pipe") == 0) { *c = '|'; return 0; }
    if (strlen(s) == 1 && s[0] != '\r' && s[0] != '\n') { *c = (unsigned char)s[0]; return 0; }
    return -1;
}

static void name_char(unsigned char c)
{
    if (c == '\t') printf("tab");
    else if (c == ' ') printf("space");
    else printf("'%c'", c);
}

static int needs_quotes(const unsigned char *s, size_t n, const struct out *o)
{
    if (n == 0)
        return 0;
    if (s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' || s[n - 1] == '\t')
        return 1;
    for (size_t i = 0; i < n; i++)
        if (s[i] == o->delim || s[i] == o->quote || s[i] == '\r' || s[i] == '\n')
            return 1;
    return 0;
}

static void on_field(void *s, size_t len, void *data)
{
    struct out *o = data;
    if (o->in_row > 0)
        putchar(o->delim);
    if (needs_quotes(s, len, o)) {
        size_t need = csv_write2(NULL, 0, s, len, o->quote);
        unsigned char *buf = malloc(need);
        csv_write2(buf, need, s, len, o->quote);
        fwrite(buf, 1, need, stdout);
        free(buf);
        o->quoted++;
    } else {
        fwrite(s, 1, len, stdout);
    }
    o->in_row++;
    o->fields++;
}

static void on_row(int c, void *data)
{
    struct out *o = data;
    (void)c;
    putchar('\n');
    o->rows++;
    o->in_row = 0;
}

int main(int argc, char **argv)
{
    if (argc != 5 && argc != 6) {
        fprintf(stderr, "usage: %s IN_DELIM IN_QUOTE OUT_DELIM OUT_QUOTE [strict]\n", argv[0]);
        return 2;
    }
    if (argc == 6 && strcmp(argv[5], "strict") != 0) {
        printf("error: unknown mode '%s'\n", argv[5]);
        return 0;
    }
    unsigned char ch[4];
    for (int i = 0; i < 4; i++) {
        if (parse_char(argv[i + 1], &ch[i]) != 0) {
            printf("error: bad character argument '%s'\n", argv[i + 1]);
            return 0;
        }
    }
    if (ch[0] == ch[1]) {
        printf("error: input delimiter and quote are the same\n");
        return 0;
    }
    if (ch[2] == ch[3]) {
        printf("error: output delimiter and quote are the same\n");
        return 0;
    }

    struct csv_parser p;
    if (csv_init(&p, argc == 6 ? CSV_STRICT : 0) != 0) {
        printf("error: csv_init failed\n");
        return 0;
    }
    csv_set_delim(&p, ch[0]);
    csv_set_quote(&p, ch[1]);

    size_t cap = 4096, len = 0, got;
    char *data = malloc(cap);
    while ((got = fread(data + len, 1, cap - len, stdin)) > 0) {
        len += got;
        if (len == cap) {
            cap *= 2;
            data = realloc(data, cap);
        }
    }

    struct out o = {ch[2], ch[3], 0, 0, 0, 0};
    size_t done = csv_parse(&p, data, len, on_field, on_row, &o);
    if (done != len) {
        if (o.in_row > 0)
            putchar('\n');
        printf("error: malformed input at byte %zu\n", done);
        csv_free(&p);
        free(data);
        return 0;
    }
    csv_fini(&p, on_field, on_row, &o);
    printf("-- ");
    name_char(csv_get_delim(&p));
    printf("/");
    name_char(csv_get_quote(&p));
    printf(" -> ");
    name_char(o.delim);
    printf("/");
    name_char(o.quote);
    printf(": %zu rows, %zu fields, %zu quoted\n", o.rows, o.fields, o.quoted);
    csv_free(&p);
    free(data);
    return 0;
}

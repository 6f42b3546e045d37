/* tsv2csv: converts tab-separated text on stdin into CSV on stdout, every field quoted with csv_fwrite. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <csv.h>

int main(int argc, char **argv)
{
    char sep = ',';
    if (argc > 2) {
        fprintf(stderr, "usage: %s [SEPARATOR]\n", argv[0]);
        return 2;
    }
    if (argc == 2) {
        if (strlen(argv[1]) != 1 || argv[1][0] == '"' || argv[1][0] == '\n' || argv[1][0] == '\t') {
            printf("error: separator must be one character other than quote, tab or newline, got '%s'\n", argv[1]);
            return 0;
        }
        sep = argv[1][0];
    }
    size_t cap = 4096, len = 0;
    char *data = malloc(cap);
    size_t got;
    while ((got = fread(data + len, 1, cap - len, stdin)) > 0) {
        len += got;
        if (len == cap) {
            cap *= 2;
            data = realloc(data, cap);
        }
    }
    size_t rows = 0, fields = 0;
    size_t start = 0;
    while (start < len) {
        size_t eol = start;
        while (eol < len && data[eol] != '\n')
            eol++;
        size_t line_end = eol;
        if (line_end > start && data[line_end - 1] == '\r')
            line_end--;
        size_t f = start;
        int first = 1;
        for (;;) {
            size_t g = f;
            while (g < line_end && data[g] != '\t')
                g++;
            if (!first)
                putchar(sep);
            if (csv_fwrite(stdout, data + f, g - f) != 0) {
                printf("error: write failed\n");
                free(data);
                return 0;
            }
            fields++;
            first = 0;
            if (g >= line_end)
                break;
            f = g + 1;
        }
        putchar('\n');
        rows++;
        start = eol + 1;
    }
    fprintf(stdout, "-- %zu rows, %zu fields\n", rows, fields);
    free(data);
    return 0;
}

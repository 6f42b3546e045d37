/* Prints the MD4 digest of every line of stdin and of the whole input, streaming it through one context. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <stdint.h>
#include <md4.h>

int main(int argc, char **argv)
{
    if (argc > 2) {
        fprintf(stderr, "usage: %s [lines|total|both]\n", argv[0]);
        return 2;
    }
    const char *mode = argc == 2 ? argv[1] : "both";
    int show_lines, show_total;
    if (strcmp(mode, "lines") == 0) { show_lines = 1; show_total = 0; }
    else if (strcmp(mode, "total") == 0) { show_lines = 0; show_total = 1; }
    else if (strcmp(mode, "both") == 0) { show_lines = 1; show_total = 1; }
    else {
        printf("error: unknown mode '%s'\n", mode);
        return 0;
    }

    MD4_CTX total;
    MD4Init(&total);
    size_t cap = 256, n = 0, total_bytes = 0;
    unsigned char *line = malloc(cap);
    int lineno = 0;
    int c;
    int pending = 0;
    char hex[MD4_DIGEST_STRING_LENGTH];
    for (;;) {
        c = getchar();
        if (c != EOF && c != '\n') {
            if (n == cap) {
                cap *= 2;
                line = realloc(line, cap);
            }
            line[n++] = (unsigned char)c;
            pending = 1;
            continue;
        }
        if (c == EOF && !pending) break;
        lineno++;
        MD4Update(&total, line, n);
        total_bytes += n;
        if (c == '\n') {
            MD4Update(&total, (const uint8_t *)"\n", 1);
            total_bytes += 1;
        }
        if (show_lines) {
            MD4_CTX one;
            MD4Init(&one);
            MD4Update(&one, line, n);
            MD4End(&one, hex);
            printf("%d %s %zu\n", lineno, hex, n);
        }
        n = 0;
        pending = 0;
        if (c == EOF) break;
    }
    if (show_total) {
        MD4End(&total, hex);
        printf("total %s %zu bytes %d lines\n", hex, total_bytes, lineno);
    }
    free(line);
    return 0;
}

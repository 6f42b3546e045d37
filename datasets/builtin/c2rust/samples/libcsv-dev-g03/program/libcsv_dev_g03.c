/* in-list: quotes every ITEM with a chosen quote character (doubling embedded quotes) via csv_fwrite2 and prints them as a parenthesised, comma-separated list such as an SQL IN clause. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <csv.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s QUOTE [ITEM...]\n", argv[0]);
        return 2;
    }
    const char *q = argv[1];
    unsigned char quote;
    if (strcmp(q, "single") == 0)
        quote = '\'';
    else if (strcmp(q, "double") == 0)
        quote = '"';
    else if (strcmp(q, "backtick") == 0)
        quote = '`';
    else if (strlen(q) == 1 && q[0] > ' ' && q[0] < 0x7f)
        quote = (unsigned char)q[0];
    else {
        printf("error: unsupported quote '%s'\n", q);
        return 0;
    }
    int count = argc - 2;
    if (count == 0) {
        printf("error: empty list\n");
        return 0;
    }
    putchar('(');
    size_t longest = 0;
    for (int i = 2; i < argc; i++) {
        if (i > 2)
            fputs(", ", stdout);
        size_t len = strlen(argv[i]);
        if (len > longest)
            longest = len;
        if (csv_fwrite2(stdout, argv[i], len, quote) != 0) {
            printf("\nerror: write failed\n");
            return 0;
        }
    }
    printf(")\n");
    printf("%d item%s, quote %c, longest item %zu bytes\n", count, count == 1 ? "" : "s", quote, longest);
    return 0;
}

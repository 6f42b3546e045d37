/* status-table: prints libcsv status codes and their messages (csv_strerror) as CSV rows "code,message", the message quoted with a chosen quote character by csv_write2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <csv.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s QUOTE [CODE...]\n", argv[0]);
        return 2;
    }
    if (strlen(argv[1]) != 1 || argv[1][0] == ',') {
        printf("error: quote must be a single character other than ',', got '%s'\n", argv[1]);
        return 0;
    }
    unsigned char quote = (unsigned char)argv[1][0];
    int ncodes;
    long codes[64];
    if (argc == 2) {
        ncodes = 0;
        for (int c = 0; c <= 4; c++)
            codes[ncodes++] = c;
    } else {
        if (argc - 2 > 64) {
            printf("error: too many codes (%d, at most 64)\n", argc - 2);
            return 0;
        }
        ncodes = argc - 2;
        for (int i = 0; i < ncodes; i++) {
            char *end;
            errno = 0;
            long v = strtol(argv[i + 2], &end, 10);
            if (*argv[i + 2] == '\0' || *end != '\0' || errno != 0 || v < -2147483647L - 1 || v > 2147483647L) {
                printf("error: invalid code '%s'\n", argv[i + 2]);
                return 0;
            }
            codes[i] = v;
        }
    }
    printf("code,message\n");
    size_t total = 0;
    for (int i = 0; i < ncodes; i++) {
        const char *msg = csv_strerror((int)codes[i]);
        size_t len = strlen(msg);
        size_t need = csv_write2(NULL, 0, msg, len, quote);
        char *buf = malloc(need);
        csv_write2(buf, need, msg, len, quote);
        printf("%ld,", codes[i]);
        fwrite(buf, 1, need, stdout);
        putchar('\n');
        total += need;
        free(buf);
    }
    printf("-- %d rows, %zu bytes of quoted messages\n", ncodes, total);
    return 0;
}

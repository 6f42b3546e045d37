/* Reformats JSON read from stdin: pretty (with an indent), compact, sorted keys or ASCII-only output. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <jansson.h>

int main(int argc, char **argv)
{
    size_t flags = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "indent=", 7) == 0) {
            char *end;
            long n = strtol(a + 7, &end, 10);
            if (*end || end == a + 7 || n < 0 || n > 31) {
                printf("error: indent must be 0..31, got '%s'\n", a + 7);
                return 0;
            }
            flags |= JSON_INDENT(n);
        } else if (strcmp(a, "compact") == 0) flags |= JSON_COMPACT;
        else if (strcmp(a, "sort") == 0) flags |= JSON_SORT_KEYS;
        else if (strcmp(a, "ascii") == 0) flags |= JSON_ENSURE_ASCII;
        else if (strcmp(a, "any") == 0) flags |= JSON_ENCODE_ANY;
        else {
            printf("error: unknown option '%s'\n", a);
            return 0;
        }
    }
    static char buf[1 << 20];
    size_t len = fread(buf, 1, sizeof buf, stdin);
    json_error_t err;
    size_t dflags = (flags & JSON_ENCODE_ANY) ? JSON_DECODE_ANY : 0;
    json_t *root = json_loadb(buf, len, dflags, &err);
    if (!root) {
        printf("error: line %d column %d: %s\n", err.line, err.column, err.text);
        return 0;
    }
    if (json_dumpf(root, stdout, flags) != 0) {
        printf("error: cannot encode\n");
        return 0;
    }
    printf("\n");
    return 0;
}

/* Shows how JSON encodes decimal numbers: each argument as a JSON real at a chosen significant-digit precision. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <errno.h>
#include <jansson.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s PRECISION [NUMBER...]\n", argv[0]);
        return 2;
    }
    char *end;
    long prec = strtol(argv[1], &end, 10);
    if (*end || end == argv[1] || prec < 0 || prec > 31) {
        printf("error: precision must be 0..31, got '%s'\n", argv[1]);
        return 0;
    }
    size_t flags = JSON_ENCODE_ANY | JSON_REAL_PRECISION(prec);
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        errno = 0;
        double v = strtod(a, &end);
        if (end == a || *end) {
            printf("%s -> error: not a number\n", a);
            continue;
        }
        if (errno == ERANGE && (v > 1.0 || v < -1.0)) {
            printf("%s -> error: out of range\n", a);
            continue;
        }
        json_t *r = json_real(v);
        if (!r) {
            printf("%s -> error: not representable in JSON\n", a);
            continue;
        }
        char *s = json_dumps(r, flags);
        printf("%s -> %s\n", a, s ? s : "error: cannot encode");
        free(s);
    }
    return 0;
}

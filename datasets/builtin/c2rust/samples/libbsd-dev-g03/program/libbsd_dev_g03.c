/* range-check: validates numbers against a [MIN, MAX] range with strtonum, strtoi and strtou. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <stdint.h>
#include <inttypes.h>
#include <bsd/stdlib.h>
#include <bsd/inttypes.h>

static const char *status_name(int rstatus)
{
    switch (rstatus) {
    case 0: return "ok";
    case ECANCELED: return "ECANCELED";
    case ERANGE: return "ERANGE";
    case ENOTSUP: return "ENOTSUP";
    case EINVAL: return "EINVAL";
    default: return "other";
    }
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s MIN MAX VALUE...\n", argv[0]);
        return 2;
    }
    const char *errstr = NULL;
    long long lo = strtonum(argv[1], -1000000000000LL, 1000000000000LL, &errstr);
    if (errstr != NULL) {
        printf("error: MIN '%s' is %s\n", argv[1], errstr);
        return 0;
    }
    long long hi = strtonum(argv[2], lo, 1000000000000LL, &errstr);
    if (errstr != NULL) {
        printf("error: MAX '%s' is %s\n", argv[2], errstr);
        return 0;
    }
    printf("range [%lld, %lld]\n", lo, hi);
    for (int i = 3; i < argc; i++) {
        const char *v = argv[i];
        long long n = strtonum(v, lo, hi, &errstr);
        printf("'%s'\n", v);
        if (errstr != NULL)
            printf("  strtonum: %s\n", errstr);
        else
            printf("  strtonum: %lld\n", n);
        int rs = 0;
        char *end = NULL;
        intmax_t si = strtoi(v, &end, 0, (intmax_t)lo, (intmax_t)hi, &rs);
        printf("  strtoi:   %" PRIdMAX " [%s] rest \"%s\"\n", si, status_name(rs), end);
        if (lo >= 0) {
            uintmax_t su = strtou(v, &end, 0, (uintmax_t)lo, (uintmax_t)hi, &rs);
            printf("  strtou:   %" PRIuMAX " [%s] rest \"%s\"\n", su, status_name(rs), end);
        }
    }
    return 0;
}

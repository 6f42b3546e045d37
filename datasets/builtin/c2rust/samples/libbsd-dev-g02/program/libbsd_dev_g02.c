/* sizes: converts byte counts to human-readable sizes and size strings back to byte counts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <stdint.h>
#include <inttypes.h>
#include <bsd/libutil.h>
#include <bsd/stdlib.h>

static void human(const char *text)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (*text == '\0' || *end != '\0' || errno != 0) {
        printf("%s: error: not an integer\n", text);
        return;
    }
    char a[16], b[16], c[16];
    int ra = humanize_number(a, 5, (int64_t)v, "", HN_AUTOSCALE, HN_B | HN_NOSPACE | HN_DECIMAL);
    int rb = humanize_number(b, 8, (int64_t)v, "B", HN_AUTOSCALE, HN_DIVISOR_1000 | HN_DECIMAL);
    int rc = humanize_number(c, 10, (int64_t)v, "B", HN_AUTOSCALE, HN_IEC_PREFIXES);
    printf("%s: ls=%s (%d) si=%s (%d) iec=%s (%d)\n", text,
           ra < 0 ? "-" : a, ra, rb < 0 ? "-" : b, rb, rc < 0 ? "-" : c, rc);
}

static void parse(const char *text)
{
    int64_t d = 0;
    uint64_t e = 0;
    int rd = dehumanize_number(text, &d);
    int ed = rd == 0 ? 0 : errno;
    int re = expand_number(text, &e);
    int ee = re == 0 ? 0 : errno;
    printf("\"%s\": dehumanize=", text);
    if (rd == 0)
        printf("%" PRId64, d);
    else
        printf("error(%s)", ed == EINVAL ? "EINVAL" : ed == ERANGE ? "ERANGE" : "other");
    printf(" expand=");
    if (re == 0)
        printf("%" PRIu64, e);
    else
        printf("error(%s)", ee == EINVAL ? "EINVAL" : ee == ERANGE ? "ERANGE" : "other");
    printf("\n");
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s human|parse VALUE...\n", argv[0]);
        return 2;
    }
    int to_human = strcmp(argv[1], "human") == 0;
    if (!to_human && strcmp(argv[1], "parse") != 0) {
        printf("error: unknown mode '%s'\n", argv[1]);
        return 0;
    }
    for (int i = 2; i < argc; i++) {
        if (to_human)
            human(argv[i]);
        else
            parse(argv[i]);
    }
    return 0;
}

/* ini-hash: prints iniparser's dictionary hash of each key given as argument (or of each stdin line). */
#include <stdio.h>
#include <string.h>
#include <iniparser/dictionary.h>

static void show(const char *key, unsigned buckets)
{
    unsigned h = dictionary_hash(key);
    printf("%-24s %10u 0x%08x bucket %u/%u\n", key, h, h, h % buckets, buckets);
}

int main(int argc, char **argv)
{
    unsigned buckets = 128;
    int first = 1;
    if (argc >= 2 && strncmp(argv[1], "--buckets=", 10) == 0) {
        const char *p = argv[1] + 10;
        unsigned v = 0;
        if (*p == '\0') {
            printf("error: empty bucket count\n");
            return 0;
        }
        for (; *p; p++) {
            if (*p < '0' || *p > '9' || v > 100000000u) {
                printf("error: invalid bucket count '%s'\n", argv[1] + 10);
                return 0;
            }
            v = v * 10 + (unsigned)(*p - '0');
        }
        if (v == 0) {
            printf("error: bucket count must be positive\n");
            return 0;
        }
        buckets = v;
        first = 2;
    }
    int count = 0;
    if (argc > first) {
        for (int i = first; i < argc; i++) {
            show(argv[i], buckets);
            count++;
        }
    } else {
        char line[4096];
        while (fgets(line, sizeof line, stdin) != NULL) {
            size_t n = strlen(line);
            while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
                line[--n] = '\0';
            show(line, buckets);
            count++;
        }
    }
    printf("keys: %d\n", count);
    return 0;
}

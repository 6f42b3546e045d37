/* A transactional XXH3-64 hasher: feeds stdin line by line into a streaming state ("#undo" drops the last
   line fed, "#reset" starts over), with the default secret, a seed, a raw secret or a seed-derived secret. */
#include <stdio.h>
#include <string.h>
#define XXH_STATIC_LINKING_ONLY /* reset_withSecretandSeed and generateSecret_fromSeed */
#include <xxhash.h>

static unsigned char derived[XXH3_SECRET_DEFAULT_SIZE];

static int parse_u64(const char *s, unsigned long long *out)
{
    unsigned long long v = 0;
    if (*s == '\0') return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return -1;
        unsigned d = (unsigned)(*s - '0');
        if (v > (18446744073709551615ULL - d) / 10) return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s default|seed|secret|derived [PARAM] < lines\n", argv[0]);
        return 2;
    }
    const char *mode = argv[1];
    const char *param = argc == 3 ? argv[2] : "";
    unsigned long long seed = 0;
    int kind;
    if (strcmp(mode, "default") == 0) kind = 0;
    else if (strcmp(mode, "seed") == 0) kind = 1;
    else if (strcmp(mode, "secret") == 0) kind = 2;
    else if (strcmp(mode, "derived") == 0) kind = 3;
    else {
        printf("error: unknown mode '%s'\n", mode);
        return 0;
    }
    if ((kind == 1 || kind == 3) && parse_u64(param, &seed) != 0) {
        printf("error: mode %s needs a decimal seed, got '%s'\n", mode, param);
        return 0;
    }
    if (kind == 3) XXH3_generateSecret_fromSeed(derived, seed);

    XXH3_state_t *state = XXH3_createState();
    XXH3_state_t *saved = XXH3_createState();
    if (!state || !saved) {
        printf("error: out of memory\n");
        return 0;
    }
    XXH_errorcode rc = XXH_OK;
    /* (re)initialises `state` for the chosen mode */
#define RESET()                                                                                         \
    do {                                                                                                \
        if (kind == 0) rc = XXH3_64bits_reset(state);                                                   \
        else if (kind == 1) rc = XXH3_64bits_reset_withSeed(state, seed);                               \
        else if (kind == 2) rc = XXH3_64bits_reset_withSecret(state, param, strlen(param));             \
        else rc = XXH3_64bits_reset_withSecretandSeed(state, derived, sizeof derived, seed);            \
    } while (0)
    RESET();
    if (rc != XXH_OK) {
        printf("error: reset refused the %s (a secret needs at least %d bytes, got %zu)\n", mode,
               XXH3_SECRET_SIZE_MIN, strlen(param));
        XXH3_freeState(state);
        XXH3_freeState(saved);
        return 0;
    }
    printf("mode: %s\n", mode);
    printf("empty: %016llx\n", (unsigned long long)XXH3_64bits_digest(state));

    static char line[70000];
    int lineno = 0, can_undo = 0;
    unsigned long long total = 0, saved_total = 0;
    while (fgets(line, sizeof line, stdin)) {
        lineno++;
        size_t len = strlen(line);
        int is_cmd = len > 0 && line[0] == '#';
        if (is_cmd) {
            size_t clen = len;
            if (clen > 0 && line[clen - 1] == '\n') clen--;
            if (clen == 5 && strncmp(line, "#undo", 5) == 0) {
                if (!can_undo) {
                    printf("%d: nothing to undo\n", lineno);
                    continue;
                }
                XXH3_copyState(state, saved);
                total = saved_total;
                can_undo = 0;
                printf("%d: undo -> %llu bytes %016llx\n", lineno, total,
                       (unsigned long long)XXH3_64bits_digest(state));
                continue;
            }
            if (clen == 6 && strncmp(line, "#reset", 6) == 0) {
                RESET();
                total = 0;
                can_undo = 0;
                printf("%d: reset -> %016llx\n", lineno, (unsigned long long)XXH3_64bits_digest(state));
                continue;
            }
            /* any other line starting with '#' is data */
        }
        XXH3_copyState(saved, state);
        saved_total = total;
        can_undo = 1;
        XXH3_64bits_update(state, line, len);
        total += len;
        printf("%d: +%zu -> %llu bytes %016llx\n", lineno, len, total,
               (unsigned long long)XXH3_64bits_digest(state));
    }
    printf("final: %llu bytes %016llx\n", total, (unsigned long long)XXH3_64bits_digest(state));
    XXH3_freeState(state);
    XXH3_freeState(saved);
    return 0;
}

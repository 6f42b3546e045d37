/* Encodes text arguments as JSON string literals (with optional ASCII-only and slash escaping). */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <jansson.h>

/* Decodes \xHH escapes (and \\) in an argument into raw bytes; returns the byte length. */
static size_t decode_arg(const char *s, char *out)
{
    size_t n = 0;
    while (*s) {
        if (s[0] == '\\' && s[1] == '\\') {
            out[n++] = '\\';
            s += 2;
        } else if (s[0] == '\\' && s[1] == 'x' && s[2] && s[3] &&
                   strchr("0123456789abcdefABCDEF", s[2]) && strchr("0123456789abcdefABCDEF", s[3])) {
            char hex[3] = {s[2], s[3], 0};
            out[n++] = (char)strtol(hex, NULL, 16);
            s += 4;
        } else {
            out[n++] = *s++;
        }
    }
    return n;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FLAGS [TEXT...]\n", argv[0]);
        return 2;
    }
    size_t flags = JSON_ENCODE_ANY;
    const char *f = argv[1];
    if (strcmp(f, "-") != 0) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", f);
        for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
            if (strcmp(tok, "ascii") == 0) flags |= JSON_ENSURE_ASCII;
            else if (strcmp(tok, "slash") == 0) flags |= JSON_ESCAPE_SLASH;
            else {
                printf("error: unknown flag '%s'\n", tok);
                return 0;
            }
        }
    }
    int ok = 0, bad = 0;
    for (int i = 2; i < argc; i++) {
        char *raw = malloc(strlen(argv[i]) + 1);
        size_t len = decode_arg(argv[i], raw);
        json_t *s = json_stringn(raw, len);
        free(raw);
        if (!s) {
            printf("%d: error: invalid UTF-8\n", i - 1);
            bad++;
            continue;
        }
        char out[8192];
        size_t need = json_dumpb(s, out, sizeof out, flags);
        if (need == 0 || need > sizeof out) {
            printf("%d: error: encoding failed\n", i - 1);
            bad++;
        } else {
            printf("%d: %.*s (%zu bytes in, %zu bytes out)\n", i - 1, (int)need, out, len, need);
            ok++;
        }
    }
    printf("encoded: %d, rejected: %d\n", ok, bad);
    return 0;
}

/* vis-codec: encodes stdin bytes with BSD vis(3) styles, decodes the text back with strunvis and checks the round trip. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define LIBBSD_OPENBSD_VIS 1
#include <bsd/vis.h>

static int parse_flags(const char *spec, int *flags)
{
    *flags = 0;
    char buf[256];
    if (strlen(spec) >= sizeof buf)
        return -1;
    strcpy(buf, spec);
    for (char *tok = strtok(buf, ","); tok != NULL; tok = strtok(NULL, ",")) {
        if (strcmp(tok, "octal") == 0) *flags |= VIS_OCTAL;
        else if (strcmp(tok, "cstyle") == 0) *flags |= VIS_CSTYLE;
        else if (strcmp(tok, "sp") == 0) *flags |= VIS_SP;
        else if (strcmp(tok, "tab") == 0) *flags |= VIS_TAB;
        else if (strcmp(tok, "nl") == 0) *flags |= VIS_NL;
        else if (strcmp(tok, "white") == 0) *flags |= VIS_WHITE;
        else if (strcmp(tok, "safe") == 0) *flags |= VIS_SAFE;
        else if (strcmp(tok, "httpstyle") == 0) *flags |= VIS_HTTPSTYLE;
        else if (strcmp(tok, "glob") == 0) *flags |= VIS_GLOB;
        else if (strcmp(tok, "none") == 0) *flags |= 0;
        else return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s FLAGS\n", argv[0]);
        return 2;
    }
    int flags;
    if (parse_flags(argv[1], &flags) != 0) {
        printf("error: unknown flag in '%s'\n", argv[1]);
        return 0;
    }
    size_t cap = 1024, len = 0, got;
    char *in = malloc(cap + 1);
    while ((got = fread(in + len, 1, cap - len, stdin)) > 0) {
        len += got;
        if (len == cap) {
            cap *= 2;
            in = realloc(in, cap + 1);
        }
    }
    in[len] = '\0';
    size_t textlen = strlen(in);
    printf("input: %zu bytes (%zu before the first NUL)\n", len, textlen);

    char *enc = malloc(4 * textlen + 1);
    int n = strvis(enc, in, flags);
    printf("strvis (%d): %s\n", n, enc);

    char *all = malloc(4 * len + 1);
    int na = strvisx(all, in, len, flags);
    printf("strvisx (%d): %s\n", na, all);

    printf("first chars:");
    const char *p = in;
    for (int k = 0; k < 4 && *p; k++, p++) {
        char one[8];
        vis(one, (unsigned char)*p, flags, (unsigned char)p[1]);
        printf(" [%s]", one);
    }
    printf("\n");

    char *dec = malloc(textlen + 1);
    int nd = strunvis(dec, enc);
    if (nd < 0)
        printf("strunvis: error\n");
    else
        printf("strunvis (%d): %s\n", nd, nd == (int)textlen && memcmp(dec, in, textlen) == 0 ? "round trip ok" : "differs");
    free(in);
    free(enc);
    free(all);
    free(dec);
    return 0;
}

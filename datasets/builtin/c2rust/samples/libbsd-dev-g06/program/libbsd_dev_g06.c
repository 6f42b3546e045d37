/* bsd-sort: sorts stdin records ("key value" lines) with BSD heapsort, mergesort, radixsort and sradixsort. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bsd/stdlib.h>

struct rec {
    char *line;
    long key;
    int order;
};

static int by_key(const void *a, const void *b)
{
    const struct rec *x = a, *y = b;
    return (x->key > y->key) - (x->key < y->key);
}

static int by_key_desc(const void *a, const void *b)
{
    return by_key(b, a);
}

/* total order for the unstable heapsort: key, then the line bytes, then input position */
static int by_all(const void *a, const void *b)
{
    const struct rec *x = a, *y = b;
    int c = by_key(a, b);
    if (c == 0)
        c = strcmp(x->line, y->line);
    if (c == 0)
        c = (x->order > y->order) - (x->order < y->order);
    return c;
}

static int by_all_desc(const void *a, const void *b)
{
    return by_all(b, a);
}

static void print_recs(const char *title, const struct rec *r, int n)
{
    printf("%s:", title);
    for (int i = 0; i < n; i++)
        printf(" %s#%d", r[i].line, r[i].order);
    printf("\n");
}

int main(int argc, char **argv)
{
    int descending = argc >= 2 && strcmp(argv[1], "desc") == 0;
    if (argc >= 2 && !descending && strcmp(argv[1], "asc") != 0) {
        printf("error: order must be asc or desc\n");
        return 0;
    }
    char line[512];
    int n = 0, cap = 16;
    struct rec *recs = malloc(sizeof *recs * (size_t)cap);
    while (fgets(line, sizeof line, stdin) != NULL) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '\0')
            continue;
        if (n == cap) {
            cap *= 2;
            recs = realloc(recs, sizeof *recs * (size_t)cap);
        }
        recs[n].line = strdup(line);
        recs[n].key = strtol(line, NULL, 10);
        recs[n].order = n + 1;
        n++;
    }
    printf("records: %d\n", n);
    int (*cmp)(const void *, const void *) = descending ? by_key_desc : by_key;

    struct rec *h = malloc(sizeof *h * (size_t)(n ? n : 1));
    memcpy(h, recs, sizeof *h * (size_t)n);
    if (heapsort(h, (size_t)n, sizeof *h, descending ? by_all_desc : by_all) != 0)
        printf("heapsort: error\n");
    else
        print_recs("heapsort", h, n);

    struct rec *m = malloc(sizeof *m * (size_t)(n ? n : 1));
    memcpy(m, recs, sizeof *m * (size_t)n);
    if (mergesort(m, (size_t)n, sizeof *m, cmp) != 0)
        printf("mergesort: error (element too small)\n");
    else
        print_recs("mergesort", m, n);

    const unsigned char **s = malloc(sizeof *s * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        s[i] = (const unsigned char *)recs[i].line;
    if (radixsort(s, n, NULL, '\0') != 0) {
        printf("radixsort: error\n");
    } else {
        printf("radixsort:");
        for (int i = 0; i < n; i++)
            printf(" %s", (const char *)s[i]);
        printf("\n");
    }
    /* table folding upper case onto lower case, reversed when descending */
    unsigned char table[256];
    for (int c = 0; c < 256; c++) {
        int v = (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
        table[c] = (unsigned char)(descending ? 255 - v : v);
    }
    for (int i = 0; i < n; i++)
        s[i] = (const unsigned char *)recs[i].line;
    if (sradixsort(s, n, table, 0) != 0) {
        printf("sradixsort: error\n");
    } else {
        printf("sradixsort:");
        for (int i = 0; i < n; i++)
            printf(" %s", (const char *)s[i]);
        printf("\n");
    }
    for (int i = 0; i < n; i++)
        free(recs[i].line);
    free(recs);
    free(h);
    free(m);
    free(s);
    return 0;
}

/* ordered-map: an integer-keyed ordered map on a BSD red-black tree (sys/tree.h), driven by commands on stdin. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <bsd/sys/tree.h>

struct node {
    RB_ENTRY(node) entry;
    long key;
    char value[64];
};

static int node_cmp(struct node *a, struct node *b)
{
    return (a->key > b->key) - (a->key < b->key);
}

RB_HEAD(map, node);
RB_GENERATE(map, node, entry, node_cmp)

static int parse_key(const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || errno != 0)
        return -1;
    *out = v;
    return 0;
}

int main(void)
{
    struct map m;
    RB_INIT(&m);
    int count = 0;
    char line[256];
    int lineno = 0;
    while (fgets(line, sizeof line, stdin) != NULL) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        char *cmd = strtok(line, " ");
        if (cmd == NULL)
            continue;
        char *a = strtok(NULL, " ");
        char *b = strtok(NULL, "");
        long k = 0, k2 = 0;
        if (strcmp(cmd, "put") == 0) {
            if (a == NULL || parse_key(a, &k) != 0) {
                printf("line %d: error: bad key\n", lineno);
                continue;
            }
            struct node *n = calloc(1, sizeof *n);
            n->key = k;
            snprintf(n->value, sizeof n->value, "%s", b ? b : "");
            struct node *old = RB_INSERT(map, &m, n);
            if (old != NULL) {
                printf("put %ld: replaced '%s'\n", k, old->value);
                snprintf(old->value, sizeof old->value, "%s", n->value);
                free(n);
            } else {
                count++;
                printf("put %ld: new (size %d)\n", k, count);
            }
        } else if (strcmp(cmd, "get") == 0 || strcmp(cmd, "del") == 0 || strcmp(cmd, "ceil") == 0
                   || strcmp(cmd, "next") == 0 || strcmp(cmd, "prev") == 0) {
            if (a == NULL || parse_key(a, &k) != 0) {
                printf("line %d: error: bad key\n", lineno);
                continue;
            }
            struct node probe;
            probe.key = k;
            struct node *n = strcmp(cmd, "ceil") == 0 ? RB_NFIND(map, &m, &probe) : RB_FIND(map, &m, &probe);
            if (n == NULL) {
                printf("%s %ld: none\n", cmd, k);
            } else if (strcmp(cmd, "get") == 0 || strcmp(cmd, "ceil") == 0) {
                printf("%s %ld: %ld = '%s'\n", cmd, k, n->key, n->value);
            } else if (strcmp(cmd, "del") == 0) {
                RB_REMOVE(map, &m, n);
                count--;
                printf("del %ld: removed '%s' (size %d)\n", k, n->value, count);
                free(n);
            } else {
                struct node *o = strcmp(cmd, "next") == 0 ? RB_NEXT(map, &m, n) : RB_PREV(map, &m, n);
                if (o == NULL)
                    printf("%s %ld: end\n", cmd, k);
                else
                    printf("%s %ld: %ld = '%s'\n", cmd, k, o->key, o->value);
            }
        } else if (strcmp(cmd, "min") == 0 || strcmp(cmd, "max") == 0) {
            struct node *n = strcmp(cmd, "min") == 0 ? RB_MIN(map, &m) : RB_MAX(map, &m);
            if (n == NULL)
                printf("%s: empty\n", cmd);
            else
                printf("%s: %ld = '%s'\n", cmd, n->key, n->value);
        } else if (strcmp(cmd, "range") == 0) {
            if (a == NULL || b == NULL || parse_key(a, &k) != 0 || parse_key(b, &k2) != 0) {
                printf("line %d: error: range needs two keys\n", lineno);
                continue;
            }
            struct node probe;
            probe.key = k;
            printf("range [%ld, %ld]:", k, k2);
            for (struct node *n = RB_NFIND(map, &m, &probe); n != NULL && n->key <= k2; n = RB_NEXT(map, &m, n))
                printf(" %ld", n->key);
            printf("\n");
        } else if (strcmp(cmd, "list") == 0) {
            struct node *n;
            printf("list (%d):", count);
            RB_FOREACH(n, map, &m)
                printf(" %ld=%s", n->key, n->value);
            printf("\n");
        } else if (strcmp(cmd, "empty") == 0) {
            printf("empty: %s\n", RB_EMPTY(&m) ? "yes" : "no");
        } else {
            printf("line %d: error: unknown command '%s'\n", lineno, cmd);
        }
    }
    struct node *n, *t;
    RB_FOREACH_SAFE(n, map, &m, t) {
        RB_REMOVE(map, &m, n);
        free(n);
    }
    printf("final size %d\n", count);
    return 0;
}

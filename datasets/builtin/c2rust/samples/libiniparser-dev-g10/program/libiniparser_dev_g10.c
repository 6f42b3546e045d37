/* kv-shell: a tiny key/value store driven by commands on stdin, built on iniparser's dictionary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <iniparser/iniparser.h>

static const char ABSENT[] = "\001absent";

int main(int argc, char **argv)
{
    size_t initial = 0;
    if (argc >= 2) {
        char *end;
        long v = strtol(argv[1], &end, 10);
        if (*argv[1] == '\0' || *end != '\0' || v < 0 || v > 100000) {
            printf("error: invalid initial size '%s'\n", argv[1]);
            return 0;
        }
        initial = (size_t)v;
    }
    dictionary *d = dictionary_new(initial);
    if (d == NULL) {
        printf("error: out of memory\n");
        return 0;
    }
    printf("capacity %ld\n", (long)d->size);
    char line[2048];
    int lineno = 0;
    while (fgets(line, sizeof line, stdin) != NULL) {
        lineno++;
        size_t n = strlen(line);
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = '\0';
        char *cmd = line;
        while (*cmd == ' ' || *cmd == '\t')
            cmd++;
        if (*cmd == '\0' || *cmd == '#')
            continue;
        char *key = strchr(cmd, ' ');
        char *value = NULL;
        if (key != NULL) {
            *key++ = '\0';
            while (*key == ' ')
                key++;
            value = strchr(key, ' ');
            if (value != NULL)
                *value++ = '\0';
        }
        if (strcmp(cmd, "dump") == 0) {
            dictionary_dump(d, stdout);
            continue;
        }
        if (strcmp(cmd, "count") == 0) {
            printf("count %d (capacity %ld)\n", d->n, (long)d->size);
            continue;
        }
        if (key == NULL || *key == '\0') {
            printf("line %d: error: '%s' needs a key\n", lineno, cmd);
            continue;
        }
        if (strcmp(cmd, "set") == 0) {
            if (value == NULL)
                value = "";
            int rc = dictionary_set(d, key, value);
            printf("set %s -> %s\n", key, rc == 0 ? "ok" : "failed");
        } else if (strcmp(cmd, "get") == 0) {
            const char *v = dictionary_get(d, key, ABSENT);
            if (v == ABSENT)
                printf("get %s: (absent)\n", key);
            else
                printf("get %s: [%s]\n", key, v);
        } else if (strcmp(cmd, "del") == 0) {
            int before = d->n;
            dictionary_unset(d, key);
            printf("del %s: %s\n", key, d->n < before ? "removed" : "absent");
        } else if (strcmp(cmd, "int") == 0) {
            printf("int %s: %d\n", key, iniparser_getint(d, key, INT_MIN));
        } else if (strcmp(cmd, "long") == 0) {
            printf("long %s: %ld\n", key, iniparser_getlongint(d, key, LONG_MIN));
        } else if (strcmp(cmd, "double") == 0) {
            printf("double %s: %.6f\n", key, iniparser_getdouble(d, key, -1.0));
        } else if (strcmp(cmd, "bool") == 0) {
            printf("bool %s: %d\n", key, iniparser_getboolean(d, key, -1));
        } else {
            printf("line %d: error: unknown command '%s'\n", lineno, cmd);
        }
    }
    printf("final %d entries\n", d->n);
    dictionary_del(d);
    return 0;
}

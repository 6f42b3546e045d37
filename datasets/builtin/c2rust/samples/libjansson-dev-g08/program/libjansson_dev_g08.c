/* Converts simple CSV from stdin (header line + rows) into a JSON array of objects; integer-looking fields become numbers. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <errno.h>
#include <jansson.h>

#define MAXF 64

static int split(char *line, char sep, char **fields)
{
    int n = 0;
    fields[n++] = line;
    for (char *p = line; *p; p++) {
        if (*p == sep) {
            *p = 0;
            if (n == MAXF) return -1;
            fields[n++] = p + 1;
        }
    }
    return n;
}

static json_t *convert(const char *s)
{
    const char *p = s;
    if (*p == '-') p++;
    if (*p >= '0' && *p <= '9' && strspn(p, "0123456789") == strlen(p) && !(p[0] == '0' && p[1])) {
        errno = 0;
        long long v = strtoll(s, NULL, 10);
        if (errno == 0) return json_integer(v);
    }
    return json_string(s);
}

int main(int argc, char **argv)
{
    char sep = ',';
    if (argc == 2) {
        if (strcmp(argv[1], "tab") == 0) sep = '\t';
        else if (strlen(argv[1]) == 1) sep = argv[1][0];
        else {
            printf("error: separator must be one character or 'tab'\n");
            return 0;
        }
    }
    static char line[4096];
    char *header[MAXF], *fields[MAXF];
    static char hbuf[4096];
    if (!fgets(hbuf, sizeof hbuf, stdin)) {
        printf("error: missing header line\n");
        return 0;
    }
    hbuf[strcspn(hbuf, "\r\n")] = 0;
    int nh = split(hbuf, sep, header);
    if (nh < 0) {
        printf("error: too many columns\n");
        return 0;
    }
    json_t *rows = json_array();
    int lineno = 1;
    while (fgets(line, sizeof line, stdin)) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        if (line[0] == 0) continue;
        int nf = split(line, sep, fields);
        if (nf != nh) {
            printf("error: line %d has %d fields, expected %d\n", lineno, nf < 0 ? MAXF + 1 : nf, nh);
            json_decref(rows);
            return 0;
        }
        json_t *obj = json_object();
        for (int i = 0; i < nf; i++) {
            if (json_object_set_new(obj, header[i], convert(fields[i])) != 0) {
                printf("error: line %d field %d: invalid UTF-8\n", lineno, i + 1);
                json_decref(obj);
                json_decref(rows);
                return 0;
            }
        }
        json_array_append_new(rows, obj);
    }
    char *out = json_dumps(rows, 0);
    printf("%s\n", out);
    free(out);
    json_decref(rows);
    return 0;
}

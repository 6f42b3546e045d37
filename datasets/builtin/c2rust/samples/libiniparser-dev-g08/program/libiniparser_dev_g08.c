/* ini-query: answers typed queries (str/int/long/double/has/count) about an INI file read from stdin. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <iniparser/iniparser.h>

#define INI_COPY "input.ini"

/* iniparser reads files by name: copy stdin to a file in the working folder. */
static int save_stdin(const char *path)
{
    FILE *out = fopen(path, "wb");
    if (out == NULL)
        return -1;
    char buf[4096];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, stdin)) > 0)
        fwrite(buf, 1, got, out);
    fclose(out);
    return 0;
}

static int diagnostics = 0;

/* Parser messages go to stdout, one "diag:" line per message line. */
static int report(const char *format, ...)
{
    char text[4096];
    va_list args;
    va_start(args, format);
    int n = vsnprintf(text, sizeof text, format, args);
    va_end(args);
    diagnostics++;
    char *line = text;
    while (*line) {
        char *end = strchr(line, '\n');
        if (end != NULL)
            *end = '\0';
        printf("diag: %s\n", line);
        if (end == NULL)
            break;
        line = end + 1;
    }
    return n;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s TYPE:KEY...\n", argv[0]);
        return 2;
    }
    iniparser_set_error_callback(report);
    if (save_stdin(INI_COPY) != 0) {
        printf("error: cannot store the input\n");
        return 0;
    }
    dictionary *ini = iniparser_load(INI_COPY);
    if (ini == NULL) {
        printf("error: input is not a valid INI file (%d diagnostics)\n", diagnostics);
        return 0;
    }
    for (int i = 1; i < argc; i++) {
        char type[16];
        const char *colon = strchr(argv[i], ':');
        if (colon == NULL || colon - argv[i] >= (long)sizeof type) {
            printf("%s: error: expected TYPE:KEY\n", argv[i]);
            continue;
        }
        memcpy(type, argv[i], (size_t)(colon - argv[i]));
        type[colon - argv[i]] = '\0';
        const char *key = colon + 1;
        if (strlen(key) > 500) {
            printf("%s: error: key too long\n", type);
            continue;
        }
        if (strcmp(type, "count") == 0) {
            if (!iniparser_find_entry(ini, key))
                printf("count %s: no such section\n", key);
            else
                printf("count %s: %d\n", key, iniparser_getsecnkeys(ini, key));
            continue;
        }
        if (strcmp(type, "has") == 0) {
            printf("has %s: %s\n", key, iniparser_find_entry(ini, key) ? "yes" : "no");
            continue;
        }
        if (strcmp(type, "str") != 0 && strcmp(type, "int") != 0 && strcmp(type, "long") != 0
            && strcmp(type, "double") != 0) {
            printf("%s: error: unknown type '%s'\n", argv[i], type);
            continue;
        }
        if (!iniparser_find_entry(ini, key)) {
            printf("%s %s: missing\n", type, key);
            continue;
        }
        const char *text = iniparser_getstring(ini, key, NULL);
        if (text == NULL) {
            printf("%s %s: is a section\n", type, key);
            continue;
        }
        if (strcmp(type, "str") == 0)
            printf("str %s: \"%s\" (%zu bytes)\n", key, text, strlen(text));
        else if (strcmp(type, "int") == 0)
            printf("int %s: %d\n", key, iniparser_getint(ini, key, 0));
        else if (strcmp(type, "long") == 0)
            printf("long %s: %ld\n", key, iniparser_getlongint(ini, key, 0L));
        else
            printf("double %s: %.6f\n", key, iniparser_getdouble(ini, key, 0.0));
    }
    iniparser_freedict(ini);
    return 0;
}

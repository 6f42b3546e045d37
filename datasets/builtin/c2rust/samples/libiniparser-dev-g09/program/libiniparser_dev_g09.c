/* ini-edit: applies edit commands (set/unset/sections/show/dump) given as arguments to an INI file read from stdin. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static int syntax_errors = 0;

/* Count parser complaints instead of printing them. */
static int count_errors(const char *format, ...)
{
    if (strstr(format, "syntax error") != NULL)
        syntax_errors++;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s COMMAND...\n", argv[0]);
        return 2;
    }
    iniparser_set_error_callback(count_errors);
    if (save_stdin(INI_COPY) != 0) {
        printf("error: cannot store the input\n");
        return 0;
    }
    dictionary *ini = iniparser_load(INI_COPY);
    if (ini == NULL) {
        printf("error: invalid INI input (%d syntax errors)\n", syntax_errors);
        return 0;
    }
    for (int i = 1; i < argc; i++) {
        const char *cmd = argv[i];
        if (strlen(cmd) > 900) {
            printf("> error: command too long\n");
            continue;
        }
        printf("> %s\n", cmd);
        if (strncmp(cmd, "set:", 4) == 0) {
            char entry[1024];
            const char *rest = cmd + 4;
            const char *eq = strchr(rest, '=');
            if (eq == NULL) {
                iniparser_set(ini, rest, NULL);
                printf("declared %s\n", rest);
            } else if (eq == rest) {
                printf("error: empty entry name\n");
            } else {
                memcpy(entry, rest, (size_t)(eq - rest));
                entry[eq - rest] = '\0';
                iniparser_set(ini, entry, eq + 1);
                printf("set %s\n", entry);
            }
        } else if (strncmp(cmd, "unset:", 6) == 0) {
            int before = ini->n;
            iniparser_unset(ini, cmd + 6);
            printf("%s\n", ini->n < before ? "removed" : "not found");
        } else if (strcmp(cmd, "sections") == 0) {
            int nsec = iniparser_getnsec(ini);
            printf("%d section%s:", nsec, nsec == 1 ? "" : "s");
            for (int s = 0; s < nsec; s++)
                printf(" %s", iniparser_getsecname(ini, s));
            printf("\n");
        } else if (strncmp(cmd, "show:", 5) == 0) {
            iniparser_dumpsection_ini(ini, cmd + 5, stdout);
        } else if (strcmp(cmd, "dump") == 0) {
            iniparser_dump(ini, stdout);
        } else {
            printf("error: unknown command\n");
        }
    }
    printf("entries: %d\n", ini->n);
    dictionary_del(ini);
    return 0;
}

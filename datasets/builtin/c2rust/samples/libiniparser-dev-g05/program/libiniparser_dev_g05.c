/* ini-export: prints one section of an INI file (stdin) as INI text and as shell variable assignments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
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

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s SECTION [PREFIX]\n", argv[0]);
        return 2;
    }
    const char *section = argv[1];
    const char *prefix = argc == 3 ? argv[2] : "";
    if (strlen(section) > 200) {
        printf("error: section name too long\n");
        return 0;
    }
    if (save_stdin(INI_COPY) != 0) {
        printf("error: cannot store the input\n");
        return 0;
    }
    dictionary *ini = iniparser_load(INI_COPY);
    if (ini == NULL) {
        printf("error: input is not a valid INI file\n");
        return 0;
    }
    if (!iniparser_find_entry(ini, section)) {
        printf("error: no section '%s'\n", section);
        dictionary_del(ini);
        return 0;
    }
    printf("--- ini ---");
    iniparser_dumpsection_ini(ini, section, stdout);
    printf("--- env ---\n");
    const char **keys = calloc((size_t)ini->n + 1, sizeof(char *));
    int count = 0;
    if (iniparser_getseckeys(ini, section, keys) != NULL) {
        for (int k = 0; keys[k] != NULL; k++) {
            const char *value = iniparser_getstring(ini, keys[k], "");
            if (value == NULL)
                value = "";
            for (const char *p = prefix; *p; p++)
                putchar(isalnum((unsigned char)*p) ? toupper((unsigned char)*p) : '_');
            if (*prefix)
                putchar('_');
            for (const char *p = keys[k]; *p; p++)
                putchar(isalnum((unsigned char)*p) ? toupper((unsigned char)*p) : '_');
            putchar('=');
            putchar('\'');
            for (const char *p = value; *p; p++) {
                if (*p == '\'')
                    fputs("'\\''", stdout);
                else
                    putchar(*p);
            }
            printf("'\n");
            count++;
        }
    }
    printf("--- %d variable%s ---\n", count, count == 1 ? "" : "s");
    free(keys);
    dictionary_del(ini);
    return 0;
}

/* ini-sections: reads an INI file on stdin and lists its sections with their key counts and key names. */
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

int main(int argc, char **argv)
{
    int names_only = argc >= 2 && strcmp(argv[1], "--names") == 0;
    if (argc >= 2 && !names_only) {
        printf("error: unknown option '%s'\n", argv[1]);
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
    int nsec = iniparser_getnsec(ini);
    printf("sections: %d\n", nsec);
    int total = 0;
    for (int i = 0; i < nsec; i++) {
        const char *name = iniparser_getsecname(ini, i);
        if (name == NULL)
            break;
        int nkeys = iniparser_getsecnkeys(ini, name);
        total += nkeys;
        printf("[%s] %d key%s\n", name, nkeys, nkeys == 1 ? "" : "s");
        if (names_only || nkeys == 0)
            continue;
        const char **keys = malloc(sizeof(char *) * (size_t)nkeys);
        if (iniparser_getseckeys(ini, name, keys) != NULL) {
            size_t skip = strlen(name) + 1;
            for (int k = 0; k < nkeys; k++)
                printf("  %d. %s\n", k + 1, keys[k] + skip);
        }
        free(keys);
    }
    printf("keys in sections: %d of %d entries\n", total, ini->n);
    iniparser_freedict(ini);
    return 0;
}

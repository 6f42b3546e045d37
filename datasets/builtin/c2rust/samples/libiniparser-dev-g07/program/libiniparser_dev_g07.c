/* ini-defaults: fills missing entries of an INI file (stdin) from section:key=value defaults and dumps the result. */
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

static const char MISSING[] = "\001missing";

int main(int argc, char **argv)
{
    if (save_stdin(INI_COPY) != 0) {
        printf("error: cannot store the input\n");
        return 0;
    }
    dictionary *ini = iniparser_load(INI_COPY);
    if (ini == NULL) {
        printf("error: input is not a valid INI file\n");
        return 0;
    }
    int added = 0, kept = 0;
    for (int i = 1; i < argc; i++) {
        const char *eq = strchr(argv[i], '=');
        if (eq == NULL || eq == argv[i] || eq - argv[i] > 500) {
            printf("bad default '%s'\n", argv[i]);
            continue;
        }
        char key[512];
        size_t len = (size_t)(eq - argv[i]);
        memcpy(key, argv[i], len);
        key[len] = '\0';
        const char *have = dictionary_get(ini, key, MISSING);
        if (have == MISSING) {
            dictionary_set(ini, key, eq + 1);
            printf("added %s = %s\n", key, eq + 1);
            added++;
        } else if (have == NULL) {
            printf("kept %s (section)\n", key);
            kept++;
        } else {
            printf("kept %s = %s\n", key, have);
            kept++;
        }
    }
    printf("-- %d added, %d kept, %d entries --\n", added, kept, ini->n);
    iniparser_dump(ini, stdout);
    iniparser_freedict(ini);
    return 0;
}

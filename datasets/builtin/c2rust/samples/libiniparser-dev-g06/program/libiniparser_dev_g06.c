/* ini-build: builds an INI document from command-line entries (section, section:key=value, -entry) and prints it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <iniparser/iniparser.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s ENTRY...\n", argv[0]);
        return 2;
    }
    dictionary *ini = dictionary_new(0);
    if (ini == NULL) {
        printf("error: out of memory\n");
        return 0;
    }
    int sets = 0, unsets = 0, skipped = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (arg[0] == '-') {
            if (arg[1] == '\0') {
                printf("skip: empty removal\n");
                skipped++;
                continue;
            }
            iniparser_unset(ini, arg + 1);
            unsets++;
            continue;
        }
        if (arg[0] == '\0' || arg[0] == '=' || strlen(arg) > 1000) {
            printf("skip: bad entry '%.40s'\n", arg);
            skipped++;
            continue;
        }
        const char *eq = strchr(arg, '=');
        if (eq == NULL) {
            iniparser_set(ini, arg, NULL);
        } else {
            char name[1024];
            size_t len = (size_t)(eq - arg);
            memcpy(name, arg, len);
            name[len] = '\0';
            iniparser_set(ini, name, eq + 1);
        }
        sets++;
    }
    printf("; %d set, %d removed, %d skipped, %d entries\n", sets, unsets, skipped, ini->n);
    iniparser_dump_ini(ini, stdout);
    iniparser_freedict(ini);
    return 0;
}

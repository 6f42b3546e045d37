/* ini-flags: reads an INI file on stdin and reports each boolean flag named on the command line (section:key). */
#include <stdio.h>
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
    if (argc < 2) {
        fprintf(stderr, "usage: %s SECTION:KEY...\n", argv[0]);
        return 2;
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
    int on = 0, off = 0, unknown = 0;
    for (int i = 1; i < argc; i++) {
        if (strchr(argv[i], ':') == NULL) {
            printf("%s: error: not a section:key name\n", argv[i]);
            unknown++;
            continue;
        }
        int v = iniparser_getboolean(ini, argv[i], -1);
        const char *word = v == 1 ? "on" : v == 0 ? "off" : "unknown";
        if (v == 1) on++;
        else if (v == 0) off++;
        else unknown++;
        printf("%s: %s\n", argv[i], word);
    }
    printf("summary: %d on, %d off, %d unknown\n", on, off, unknown);
    return 0;
}

/* ini-normalize: reads an INI file on stdin and prints it back in iniparser's canonical loadable form. */
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

int main(void)
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
    printf("; %d entries\n", ini->n);
    iniparser_dump_ini(ini, stdout);
    printf("; end\n");
    return 0;
}

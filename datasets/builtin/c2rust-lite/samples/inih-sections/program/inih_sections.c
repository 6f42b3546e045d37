/* inih-sections: parse INI text from stdin with ini_parse_string and print the entries the handler gets —
   all of them, or with --section NAME only those in that section (compared byte for byte) — then how many
   entries the parser reported in all and the line of the first error (0 if none). */
#include <stdio.h>
#include <string.h>
#include <ini.h>

struct filter {
    const char *section;
    int total, shown;
};

static int handler(void *user, const char *section, const char *name, const char *value) {
    struct filter *f = user;
    f->total++;
    if (f->section == NULL || strcmp(f->section, section) == 0) {
        f->shown++;
        printf("[%s] %s = %s\n", section, name, value);
    }
    return 1;
}

int main(int argc, char **argv) {
    struct filter f = {NULL, 0, 0};
    for (int i = 1; i < argc; i += 2) {
        if (i + 1 >= argc || strcmp(argv[i], "--section") != 0) {
            fprintf(stderr, "usage error: the only argument is --section NAME\n");
            return 2;
        }
        f.section = argv[i + 1];
    }
    static char text[65536];
    size_t n = fread(text, 1, sizeof text - 1, stdin);
    text[n] = '\0';
    int error = ini_parse_string(text, handler, &f);
    printf("shown: %d of %d\nerror line: %d\n", f.shown, f.total, error);
    return 0;
}

/* cjson-parse-print: parse JSON from stdin with cJSON_ParseWithOpts and print it back with cJSON_Print
   (--format pretty, the default) or cJSON_PrintUnformatted (--format compact), then how many bytes the
   parser consumed. --strict 1 requires nothing but whitespace after the value. A parse failure prints the
   byte offset cJSON_GetErrorPtr points at. */
#include <stdio.h>
#include <string.h>
#include <cjson/cJSON.h>

static int usage(const char *why) {
    fprintf(stderr, "usage error: %s\n", why);
    return 2;
}

int main(int argc, char **argv) {
    const char *format = "pretty", *strict = "0";
    for (int i = 1; i < argc; i += 2) {
        if (i + 1 >= argc) return usage("a --name needs a value");
        if (strcmp(argv[i], "--format") == 0) format = argv[i + 1];
        else if (strcmp(argv[i], "--strict") == 0) strict = argv[i + 1];
        else return usage("unknown argument (known: --format, --strict)");
    }
    int pretty = strcmp(format, "pretty") == 0;
    if (!pretty && strcmp(format, "compact") != 0) {
        printf("error: --format must be pretty or compact\n");
        return 0;
    }
    if (strcmp(strict, "0") != 0 && strcmp(strict, "1") != 0) {
        printf("error: --strict must be 0 or 1\n");
        return 0;
    }
    static char text[65536];
    size_t n = fread(text, 1, sizeof text - 1, stdin);
    text[n] = '\0';
    const char *end = NULL;
    cJSON *json = cJSON_ParseWithOpts(text, &end, strict[0] == '1');
    if (json == NULL) {
        printf("parse error at byte %ld\n", (long)(cJSON_GetErrorPtr() - text));
        return 0;
    }
    char *out = pretty ? cJSON_Print(json) : cJSON_PrintUnformatted(json);
    printf("%s\n", out);
    printf("parsed bytes: %ld\n", (long)(end - text));
    cJSON_free(out);
    cJSON_Delete(json);
    return 0;
}

/* cjson-minify: strip whitespace and comments from JSON text read on stdin with cJSON_Minify, then print
   the minified text and its length in bytes. Takes no arguments (any argument is a usage error, exit 2). */
#include <stdio.h>
#include <string.h>
#include <cjson/cJSON.h>

int main(int argc, char **argv) {
    (void)argv;
    if (argc > 1) {
        fprintf(stderr, "usage error: cjson_minify takes no arguments, only stdin\n");
        return 2;
    }
    static char text[65536];
    size_t n = fread(text, 1, sizeof text - 1, stdin);
    text[n] = '\0';
    cJSON_Minify(text);
    printf("minified: %s\n", text);
    printf("length: %zu\n", strlen(text));
    return 0;
}

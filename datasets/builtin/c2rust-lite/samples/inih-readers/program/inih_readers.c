/* inih-readers: the same INI text from stdin through inih's three entry points — ini_parse_string
   (--mode string, the default), ini_parse_file on stdin (--mode file) and ini_parse_stream with a reader that
   hands over at most --chunk bytes per call (--mode stream) — with a handler that refuses the entries named
   by --reject (an error on their line). Prints every handler call, then the line of the first error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ini.h>

struct chunked {
    const char *p;
    size_t left;
    int chunk;
};

/* fgets-like: up to and including a newline, at most min(num - 1, chunk) bytes. */
static char *chunk_reader(char *str, int num, void *stream) {
    struct chunked *c = stream;
    if (c->left == 0 || num < 2) return NULL;
    int limit = num - 1 < c->chunk ? num - 1 : c->chunk;
    int i = 0;
    while (i < limit && c->left > 0) {
        char ch = *c->p++;
        c->left--;
        str[i++] = ch;
        if (ch == '\n') break;
    }
    str[i] = '\0';
    return str;
}

static const char *reject = NULL;
static int calls = 0;

static int handler(void *user, const char *section, const char *name, const char *value) {
    (void)user;
    int ok = reject == NULL || strcmp(reject, name) != 0;
    printf("%d: [%s] %s = %s%s\n", ++calls, section, name, value, ok ? "" : " (rejected)");
    return ok;
}

static int usage(const char *why) {
    fprintf(stderr, "usage error: %s\n", why);
    return 2;
}

int main(int argc, char **argv) {
    const char *mode = "string", *chunk_arg = "16";
    for (int i = 1; i < argc; i += 2) {
        if (i + 1 >= argc) return usage("a --name needs a value");
        if (strcmp(argv[i], "--mode") == 0) mode = argv[i + 1];
        else if (strcmp(argv[i], "--chunk") == 0) chunk_arg = argv[i + 1];
        else if (strcmp(argv[i], "--reject") == 0) reject = argv[i + 1];
        else return usage("unknown argument (known: --mode, --chunk, --reject)");
    }
    char *end = NULL;
    long chunk = strtol(chunk_arg, &end, 10);
    if (*chunk_arg == '\0' || *end != '\0' || chunk < 1 || chunk > 1000) {
        printf("error: --chunk must be an integer from 1 to 1000\n");
        return 0;
    }
    int error;
    if (strcmp(mode, "file") == 0) {
        error = ini_parse_file(stdin, handler, NULL);
    } else if (strcmp(mode, "string") == 0 || strcmp(mode, "stream") == 0) {
        static char text[65536];
        size_t n = fread(text, 1, sizeof text - 1, stdin);
        text[n] = '\0';
        if (strcmp(mode, "string") == 0) {
            error = ini_parse_string(text, handler, NULL);
        } else {
            struct chunked c = {text, n, (int)chunk};
            error = ini_parse_stream(chunk_reader, &c, handler, NULL);
        }
    } else {
        printf("error: --mode must be string, file or stream\n");
        return 0;
    }
    printf("calls: %d\nerror line: %d\n", calls, error);
    return 0;
}

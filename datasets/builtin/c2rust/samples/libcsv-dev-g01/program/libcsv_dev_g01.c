/* field-fit: encodes each TEXT as one quoted CSV field into a fixed SIZE-byte buffer with csv_write and reports how much fitted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <csv.h>

static void show(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        if (c == '\\')
            fputs("\\\\", stdout);
        else if (c < 0x20 || c == 0x7f)
            printf("\\x%02x", c);
        else
            putchar(c);
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s SIZE TEXT...\n", argv[0]);
        return 2;
    }
    char *end;
    long size = strtol(argv[1], &end, 10);
    if (*argv[1] == '\0' || *end != '\0' || size < 0 || size > 1024) {
        printf("error: invalid buffer size '%s'\n", argv[1]);
        return 0;
    }
    unsigned char *buf = malloc((size_t)size + 1);
    int fitted = 0;
    for (int i = 2; i < argc; i++) {
        const char *text = argv[i];
        size_t len = strlen(text);
        memset(buf, '.', (size_t)size);
        size_t need = csv_write(buf, (size_t)size, text, len);
        size_t wrote = need < (size_t)size ? need : (size_t)size;
        printf("field %d: %zu bytes in, %zu needed, %zu written: [", i - 1, len, need, wrote);
        show(buf, wrote);
        printf("]%s\n", need > (size_t)size ? " (truncated)" : "");
        if (need <= (size_t)size)
            fitted++;
    }
    printf("%d of %d fields fit in %ld bytes\n", fitted, argc - 2, size);
    free(buf);
    return 0;
}

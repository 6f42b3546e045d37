/* bounded-join: joins the arguments into a fixed-size buffer with strlcpy/strlcat and reports truncation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bsd/string.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s SIZE PART...\n", argv[0]);
        return 2;
    }
    char *end;
    long size = strtol(argv[1], &end, 10);
    if (*argv[1] == '\0' || *end != '\0' || size < 0 || size > 4096) {
        printf("error: invalid buffer size '%s'\n", argv[1]);
        return 0;
    }
    char *buf = malloc((size_t)size + 1);
    buf[0] = '\0';
    int truncated = 0;
    for (int i = 2; i < argc; i++) {
        size_t want;
        if (i == 2)
            want = strlcpy(buf, argv[i], (size_t)size);
        else
            want = strlcat(buf, argv[i], (size_t)size);
        int cut = want >= (size_t)size;
        if (cut)
            truncated = 1;
        printf("%s \"%s\": returned %zu%s\n", i == 2 ? "copy" : "cat ", argv[i], want,
               cut ? " (truncated)" : "");
    }
    if (size > 0)
        printf("result: \"%s\" (%zu of %ld bytes used)\n", buf, strlen(buf), size);
    else
        printf("result: no buffer\n");
    printf("%s\n", truncated ? "status: truncated" : "status: complete");
    free(buf);
    return 0;
}

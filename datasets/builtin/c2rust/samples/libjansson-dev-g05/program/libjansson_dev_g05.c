/* Counts word frequencies from stdin into a JSON object and prints it (keys sorted), optionally dropping rare words. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <ctype.h>
#include <jansson.h>

static int emit(const char *buffer, size_t size, void *data)
{
    size_t *total = data;
    *total += size;
    fwrite(buffer, 1, size, stdout);
    return 0;
}

int main(int argc, char **argv)
{
    long min_count = 1;
    int lower = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "lower") == 0) {
            lower = 1;
        } else {
            char *end;
            min_count = strtol(argv[i], &end, 10);
            if (*end || end == argv[i] || min_count < 1) {
                printf("error: bad minimum count '%s'\n", argv[i]);
                return 0;
            }
        }
    }
    json_t *counts = json_object();
    char word[256];
    size_t wl = 0;
    long words = 0;
    int c;
    do {
        c = getchar();
        if (c != EOF && (isalnum(c) || c == '\'' || c == '-' || c >= 0x80)) {
            if (wl < sizeof word - 1) word[wl++] = (char)(lower && c < 0x80 ? tolower(c) : c);
            continue;
        }
        if (wl == 0) continue;
        word[wl] = 0;
        size_t klen = wl;
        wl = 0;
        words++;
        json_t *n = json_object_getn(counts, word, klen);
        if (n) {
            json_integer_set(n, json_integer_value(n) + 1);
        } else if (json_object_setn_new(counts, word, klen, json_integer(1)) != 0) {
            printf("error: word %ld is not valid UTF-8\n", words);
            return 0;
        }
    } while (c != EOF);

    /* drop words below the threshold: collect keys first, then remove */
    const char *key;
    json_t *value;
    size_t distinct = json_object_size(counts);
    if (min_count > 1) {
        char **drop = calloc(distinct + 1, sizeof *drop);
        size_t nd = 0;
        json_object_foreach(counts, key, value) {
            if (json_integer_value(value) < min_count) drop[nd++] = strdup(key);
        }
        for (size_t i = 0; i < nd; i++) {
            json_object_del(counts, drop[i]);
            free(drop[i]);
        }
        free(drop);
    }
    printf("words: %ld, distinct: %zu, kept: %zu\n", words, distinct, json_object_size(counts));
    size_t total = 0;
    json_dump_callback(counts, emit, &total, JSON_SORT_KEYS | JSON_INDENT(1));
    printf("\n(%zu bytes)\n", total);
    json_decref(counts);
    return 0;
}

/* Merges a JSON patch object into a base object (update / existing / missing / recursive) and prints the result. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <jansson.h>

static json_t *load_object(const char *what, const char *text)
{
    json_error_t err;
    json_t *v = json_loads(text, 0, &err);
    if (!v) {
        printf("error: %s: %s (column %d)\n", what, err.text, err.column);
        return NULL;
    }
    if (json_typeof(v) != JSON_OBJECT) {
        printf("error: %s is not an object\n", what);
        json_decref(v);
        return NULL;
    }
    return v;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s update|existing|missing|recursive BASE PATCH\n", argv[0]);
        return 2;
    }
    const char *mode = argv[1];
    if (strcmp(mode, "update") && strcmp(mode, "existing") && strcmp(mode, "missing") &&
        strcmp(mode, "recursive")) {
        printf("error: unknown mode '%s'\n", mode);
        return 0;
    }
    json_t *base = load_object("base", argv[2]);
    if (!base) return 0;
    json_t *patch = load_object("patch", argv[3]);
    if (!patch) {
        json_decref(base);
        return 0;
    }
    json_t *result = json_deep_copy(base);
    int rc;
    if (strcmp(mode, "update") == 0) rc = json_object_update(result, patch);
    else if (strcmp(mode, "existing") == 0) rc = json_object_update_existing(result, patch);
    else if (strcmp(mode, "missing") == 0) rc = json_object_update_missing(result, patch);
    else rc = json_object_update_recursive(result, patch);
    if (rc != 0) {
        printf("error: merge failed\n");
    } else {
        char *b = json_dumps(base, JSON_SORT_KEYS | JSON_COMPACT);
        char *r = json_dumps(result, JSON_SORT_KEYS | JSON_COMPACT);
        printf("mode: %s\n", mode);
        printf("keys: base %zu, patch %zu, result %zu\n", json_object_size(base), json_object_size(patch),
               json_object_size(result));
        printf("base:   %s\n", b);
        printf("result: %s\n", r);
        free(b);
        free(r);
    }
    json_decref(result);
    json_decref(patch);
    json_decref(base);
    return 0;
}

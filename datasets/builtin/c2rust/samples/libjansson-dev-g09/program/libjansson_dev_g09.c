/* Looks up dotted paths (e.g. "users.0.name") in a JSON document from stdin and describes each value found. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <jansson.h>

static json_t *lookup(json_t *node, const char *path, char *failed, size_t fsz)
{
    char seg[512];
    const char *p = path;
    if (*p == 0) return node;
    for (;;) {
        size_t n = strcspn(p, ".");
        if (n >= sizeof seg) n = sizeof seg - 1;
        memcpy(seg, p, n);
        seg[n] = 0;
        json_t *next = NULL;
        switch (json_typeof(node)) {
        case JSON_OBJECT:
            next = json_object_get(node, seg);
            break;
        case JSON_ARRAY: {
            char *end;
            long idx = strtol(seg, &end, 10);
            if (end != seg && *end == 0 && idx >= 0 && (size_t)idx < json_array_size(node))
                next = json_array_get(node, (size_t)idx);
            break;
        }
        default:
            break;
        }
        if (!next) {
            snprintf(failed, fsz, "%s", seg);
            return NULL;
        }
        node = next;
        p += n;
        if (*p == 0) return node;
        p++;
    }
}

static void describe(json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        printf("object with %zu keys\n", json_object_size(v));
        break;
    case JSON_ARRAY:
        printf("array with %zu items\n", json_array_size(v));
        break;
    case JSON_STRING:
        printf("string \"%s\" (%zu bytes)\n", json_string_value(v), json_string_length(v));
        break;
    case JSON_INTEGER:
        printf("integer %lld\n", (long long)json_integer_value(v));
        break;
    case JSON_REAL:
        printf("real %.6f\n", json_real_value(v));
        break;
    case JSON_TRUE:
        printf("true\n");
        break;
    case JSON_FALSE:
        printf("false\n");
        break;
    case JSON_NULL:
        printf("null\n");
        break;
    }
}

int main(int argc, char **argv)
{
    static char buf[1 << 16];
    size_t len = fread(buf, 1, sizeof buf - 1, stdin);
    buf[len] = 0;
    json_error_t err;
    json_t *root = json_loads(buf, JSON_DECODE_ANY, &err);
    if (!root) {
        printf("error: line %d: %s\n", err.line, err.text);
        return 0;
    }
    if (argc < 2) {
        printf("(root): ");
        describe(root);
    }
    for (int i = 1; i < argc; i++) {
        char failed[512];
        json_t *v = lookup(root, argv[i], failed, sizeof failed);
        printf("%s: ", argv[i][0] ? argv[i] : "(root)");
        if (v) describe(v);
        else printf("not found (at '%s')\n", failed);
    }
    json_decref(root);
    return 0;
}

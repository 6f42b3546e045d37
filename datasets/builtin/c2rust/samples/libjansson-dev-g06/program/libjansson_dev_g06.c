/* Edits a JSON array read from stdin with append/insert/remove operations given as arguments. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <jansson.h>

static int parse_index(const char *s, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end != ':' ) return -1;
    *out = v;
    return (int)(end - s);
}

int main(int argc, char **argv)
{
    static char buf[1 << 16];
    size_t len = fread(buf, 1, sizeof buf - 1, stdin);
    buf[len] = 0;
    json_error_t err;
    json_t *arr = json_loads(buf, 0, &err);
    if (!arr) {
        printf("error: input: %s\n", err.text);
        return 0;
    }
    if (!json_is_array(arr)) {
        printf("error: input is not an array\n");
        json_decref(arr);
        return 0;
    }
    for (int i = 1; i < argc; i++) {
        const char *op = argv[i];
        int rc = 0;
        if (strncmp(op, "append:", 7) == 0 || strncmp(op, "insert:", 7) == 0) {
            long idx = (long)json_array_size(arr);
            const char *val = op + 7;
            if (op[0] == 'i') {
                int n = parse_index(op + 7, &idx);
                if (n < 0 || idx < 0) {
                    printf("error: op %d: bad index in '%s'\n", i, op);
                    break;
                }
                val = op + 7 + n + 1;
            }
            json_t *v = json_loads(val, JSON_DECODE_ANY, &err);
            if (!v) {
                printf("error: op %d: bad value: %s\n", i, err.text);
                break;
            }
            rc = op[0] == 'a' ? json_array_append_new(arr, v) : json_array_insert_new(arr, (size_t)idx, v);
        } else if (strncmp(op, "remove:", 7) == 0) {
            char *end;
            long idx = strtol(op + 7, &end, 10);
            if (end == op + 7 || *end || idx < 0) {
                printf("error: op %d: bad index in '%s'\n", i, op);
                break;
            }
            rc = json_array_remove(arr, (size_t)idx);
        } else {
            printf("error: op %d: unknown operation '%s'\n", i, op);
            break;
        }
        if (rc != 0) {
            printf("error: op %d: index out of range (size %zu)\n", i, json_array_size(arr));
            break;
        }
    }
    char *out = json_dumps(arr, JSON_COMPACT);
    printf("size %zu: %s\n", json_array_size(arr), out);
    free(out);
    json_decref(arr);
    return 0;
}

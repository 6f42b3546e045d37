/* Compares two JSON documents for structural equality (object key order ignored). */
#include <stdio.h>
#include <jansson.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s JSON_A JSON_B\n", argv[0]);
        return 2;
    }
    json_error_t err;
    json_t *a = json_loads(argv[1], JSON_DECODE_ANY, &err);
    if (!a) {
        printf("error: first document: %s (line %d, column %d, position %d)\n", err.text, err.line,
               err.column, err.position);
        return 0;
    }
    json_t *b = json_loads(argv[2], JSON_DECODE_ANY, &err);
    if (!b) {
        printf("error: second document: %s (line %d, column %d, position %d)\n", err.text, err.line,
               err.column, err.position);
        return 0;
    }
    printf("%s\n", json_equal(a, b) ? "equal" : "different");
    return 0;
}

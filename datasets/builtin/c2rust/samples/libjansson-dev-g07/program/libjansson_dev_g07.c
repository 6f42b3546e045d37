/* Validates and reads a user record (JSON object from stdin) with json_unpack_ex, in loose or strict mode. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <jansson.h>

int main(int argc, char **argv)
{
    if (argc > 2 || (argc == 2 && strcmp(argv[1], "strict") != 0 && strcmp(argv[1], "loose") != 0)) {
        fprintf(stderr, "usage: %s [strict|loose]\n", argv[0]);
        return 2;
    }
    size_t flags = (argc == 2 && strcmp(argv[1], "strict") == 0) ? JSON_STRICT : 0;
    static char buf[1 << 16];
    size_t len = fread(buf, 1, sizeof buf - 1, stdin);
    buf[len] = 0;
    json_error_t err;
    json_t *root = json_loads(buf, 0, &err);
    if (!root) {
        printf("error: parse: %s\n", err.text);
        return 0;
    }
    if (!json_is_object(root)) {
        printf("error: record must be a JSON object\n");
        json_decref(root);
        return 0;
    }
    const char *name = NULL;
    size_t name_len = 0;
    json_int_t id = 0;
    int admin = 0;
    double score = -1.0;
    const char *email = "(none)";
    if (json_unpack_ex(root, &err, flags, "{s:s%, s:I, s?b, s?F, s?s}", "name", &name, &name_len, "id", &id,
                       "admin", &admin, "score", &score, "email", &email) != 0) {
        printf("error: record: %s\n", err.text);
        json_decref(root);
        return 0;
    }
    printf("name: %s (%zu bytes)\n", name, name_len);
    printf("id: %lld\n", (long long)id);
    printf("admin: %s\n", admin ? "yes" : "no");
    if (score < 0) printf("score: (none)\n");
    else printf("score: %.2f\n", score);
    printf("email: %s\n", email);
    json_decref(root);
    return 0;
}

/* cjson-build: build a JSON object from named arguments with cJSON's constructors and print it.
   --name TEXT, --age NUMBER, --active true|false, --tags A,B,C (split on every comma, empty pieces kept),
   --format pretty|compact (default pretty). Members appear in that order, only those given. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

static int usage(const char *why) {
    fprintf(stderr, "usage error: %s\n", why);
    return 2;
}

/* -?digits(.digits)?([eE][+-]?digits)? : the only number syntax accepted. */
static int is_number(const char *s) {
    const char *p = s;
    if (*p == '-') p++;
    if (*p < '0' || *p > '9') return 0;
    while (*p >= '0' && *p <= '9') p++;
    if (*p == '.') {
        p++;
        if (*p < '0' || *p > '9') return 0;
        while (*p >= '0' && *p <= '9') p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-') p++;
        if (*p < '0' || *p > '9') return 0;
        while (*p >= '0' && *p <= '9') p++;
    }
    return *p == '\0';
}

int main(int argc, char **argv) {
    const char *name = NULL, *age = NULL, *active = NULL, *tags = NULL, *format = "pretty";
    for (int i = 1; i < argc; i += 2) {
        if (i + 1 >= argc) return usage("a --name needs a value");
        if (strcmp(argv[i], "--name") == 0) name = argv[i + 1];
        else if (strcmp(argv[i], "--age") == 0) age = argv[i + 1];
        else if (strcmp(argv[i], "--active") == 0) active = argv[i + 1];
        else if (strcmp(argv[i], "--tags") == 0) tags = argv[i + 1];
        else if (strcmp(argv[i], "--format") == 0) format = argv[i + 1];
        else return usage("unknown argument (known: --name, --age, --active, --tags, --format)");
    }
    if (strcmp(format, "pretty") != 0 && strcmp(format, "compact") != 0) {
        printf("error: --format must be pretty or compact\n");
        return 0;
    }
    if (age != NULL && !is_number(age)) {
        printf("error: --age is not a number: %s\n", age);
        return 0;
    }
    if (active != NULL && strcmp(active, "true") != 0 && strcmp(active, "false") != 0) {
        printf("error: --active must be true or false\n");
        return 0;
    }
    cJSON *root = cJSON_CreateObject();
    if (name != NULL) cJSON_AddStringToObject(root, "name", name);
    if (age != NULL) cJSON_AddNumberToObject(root, "age", strtod(age, NULL));
    if (active != NULL) cJSON_AddBoolToObject(root, "active", strcmp(active, "true") == 0);
    if (tags != NULL) {
        size_t len = strlen(tags), count = 1;
        for (size_t i = 0; i < len; i++) count += tags[i] == ',';
        char *copy = strdup(tags);
        const char **pieces = malloc(count * sizeof *pieces);
        size_t k = 0;
        pieces[k++] = copy;
        for (size_t i = 0; i < len; i++) {
            if (copy[i] == ',') {
                copy[i] = '\0';
                pieces[k++] = copy + i + 1;
            }
        }
        cJSON_AddItemToObject(root, "tags", cJSON_CreateStringArray(pieces, (int)count));
        free(pieces);
        free(copy);
    }
    char *out = strcmp(format, "pretty") == 0 ? cJSON_Print(root) : cJSON_PrintUnformatted(root);
    printf("%s\n", out);
    free(out);
    cJSON_Delete(root);
    return 0;
}

/* cjson-query: parse a JSON document from stdin (cJSON_Parse), walk --path, describe what it finds, and
   optionally compare it with --equals JSON (cJSON_Compare).
   --path: segments separated by '/'; "#N" takes the N-th child (cJSON_GetArrayItem, objects too), any other
   segment looks a key up (cJSON_GetObjectItem, or cJSON_GetObjectItemCaseSensitive with --case-sensitive 1).
   An empty --path (the default) is the document itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

static int usage(const char *why) {
    fprintf(stderr, "usage error: %s\n", why);
    return 2;
}

static const char *type_name(const cJSON *item) {
    if (cJSON_IsObject(item)) return "object";
    if (cJSON_IsArray(item)) return "array";
    if (cJSON_IsString(item)) return "string";
    if (cJSON_IsNumber(item)) return "number";
    if (cJSON_IsTrue(item)) return "true";
    if (cJSON_IsFalse(item)) return "false";
    if (cJSON_IsNull(item)) return "null";
    return "invalid";
}

/* "#" followed by 1-9 digits: the index; -1 otherwise. */
static long index_of(const char *segment) {
    size_t n = strlen(segment + 1);
    if (n == 0 || n > 9 || strspn(segment + 1, "0123456789") != n) return -1;
    return strtol(segment + 1, NULL, 10);
}

int main(int argc, char **argv) {
    const char *path = "", *equals = NULL, *case_sensitive = "0";
    for (int i = 1; i < argc; i += 2) {
        if (i + 1 >= argc) return usage("a --name needs a value");
        if (strcmp(argv[i], "--path") == 0) path = argv[i + 1];
        else if (strcmp(argv[i], "--equals") == 0) equals = argv[i + 1];
        else if (strcmp(argv[i], "--case-sensitive") == 0) case_sensitive = argv[i + 1];
        else return usage("unknown argument (known: --path, --equals, --case-sensitive)");
    }
    if (strcmp(case_sensitive, "0") != 0 && strcmp(case_sensitive, "1") != 0) {
        printf("error: --case-sensitive must be 0 or 1\n");
        return 0;
    }
    int cs = case_sensitive[0] == '1';
    static char text[65536];
    size_t n = fread(text, 1, sizeof text - 1, stdin);
    text[n] = '\0';
    cJSON *doc = cJSON_Parse(text);
    if (doc == NULL) {
        printf("parse error at byte %ld\n", (long)(cJSON_GetErrorPtr() - text));
        return 0;
    }
    cJSON *node = doc;
    if (path[0] != '\0') {
        char *copy = strdup(path);
        char *segment = copy;
        for (int k = 1; node != NULL; k++) {
            char *slash = strchr(segment, '/');
            if (slash != NULL) *slash = '\0';
            if (segment[0] == '#') {
                long index = index_of(segment);
                if (index < 0) {
                    printf("error: bad index at segment %d: %s\n", k, segment);
                    free(copy);
                    cJSON_Delete(doc);
                    return 0;
                }
                node = cJSON_GetArrayItem(node, (int)index);
            } else {
                node = cs ? cJSON_GetObjectItemCaseSensitive(node, segment) : cJSON_GetObjectItem(node, segment);
            }
            if (node == NULL) printf("not found at segment %d: %s\n", k, segment);
            if (slash == NULL) break;
            segment = slash + 1;
        }
        free(copy);
    }
    if (node != NULL) {
        printf("type: %s\n", type_name(node));
        if (node->string != NULL) printf("key: %s\n", node->string);
        if (cJSON_IsArray(node) || cJSON_IsObject(node)) printf("size: %d\n", cJSON_GetArraySize(node));
        if (cJSON_IsNumber(node)) printf("valueint: %d\n", node->valueint);
        char *out = cJSON_PrintUnformatted(node);
        printf("value: %s\n", out);
        cJSON_free(out);
        if (equals != NULL) {
            cJSON *other = cJSON_Parse(equals);
            if (other == NULL) printf("equals: parse error\n");
            else printf("equals: %s\n", cJSON_Compare(node, other, cs) ? "true" : "false");
            cJSON_Delete(other);
        }
    }
    cJSON_Delete(doc);
    return 0;
}

/* word-set: maintains a set of words (BSD StringList) with an undo log (TAILQ), driven by commands on stdin. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bsd/stringlist.h>
#include <bsd/sys/queue.h>

struct change {
    int added;          /* 1: the word was added, 0: it was removed */
    char *word;
    TAILQ_ENTRY(change) link;
};
TAILQ_HEAD(changelog, change);

static void log_change(struct changelog *log, int added, const char *word)
{
    struct change *c = malloc(sizeof *c);
    c->added = added;
    c->word = strdup(word);
    TAILQ_INSERT_TAIL(log, c, link);
}

/* Remove a word, keeping the order of the others; 0 if removed, -1 if absent. */
static int remove_word(StringList *sl, const char *word)
{
    for (size_t i = 0; i < sl->sl_cur; i++) {
        if (strcmp(sl->sl_str[i], word) == 0) {
            free(sl->sl_str[i]);
            memmove(&sl->sl_str[i], &sl->sl_str[i + 1], (sl->sl_cur - i - 1) * sizeof(char *));
            sl->sl_cur--;
            return 0;
        }
    }
    return -1;
}

int main(void)
{
    StringList *sl = sl_init();
    struct changelog log;
    TAILQ_INIT(&log);
    char line[512];
    int lineno = 0;
    while (fgets(line, sizeof line, stdin) != NULL) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        char *cmd = strtok(line, " \t");
        if (cmd == NULL)
            continue;
        char *arg = strtok(NULL, " \t");
        if (strcmp(cmd, "add") == 0 && arg != NULL) {
            int n = 0;
            for (; arg != NULL; arg = strtok(NULL, " \t")) {
                if (sl_find(sl, arg) != NULL)
                    continue;
                sl_add(sl, strdup(arg));
                log_change(&log, 1, arg);
                n++;
            }
            printf("added %d, size %zu\n", n, sl->sl_cur);
        } else if (strcmp(cmd, "del") == 0 && arg != NULL) {
            if (remove_word(sl, arg) == 0) {
                log_change(&log, 0, arg);
                printf("deleted %s, size %zu\n", arg, sl->sl_cur);
            } else {
                printf("not found: %s\n", arg);
            }
        } else if (strcmp(cmd, "has") == 0 && arg != NULL) {
            printf("%s: %s\n", arg, sl_find(sl, arg) != NULL ? "yes" : "no");
        } else if (strcmp(cmd, "list") == 0) {
            printf("list (%zu):", sl->sl_cur);
            for (size_t i = 0; i < sl->sl_cur; i++)
                printf(" %s", sl->sl_str[i]);
            printf("\n");
        } else if (strcmp(cmd, "undo") == 0) {
            if (TAILQ_EMPTY(&log)) {
                printf("nothing to undo\n");
                continue;
            }
            struct change *c = TAILQ_LAST(&log, changelog);
            TAILQ_REMOVE(&log, c, link);
            if (c->added) {
                remove_word(sl, c->word);
                printf("undo add %s\n", c->word);
            } else {
                sl_add(sl, strdup(c->word));
                printf("undo del %s\n", c->word);
            }
            free(c->word);
            free(c);
        } else if (strcmp(cmd, "history") == 0) {
            printf("history:");
            struct change *c;
            TAILQ_FOREACH(c, &log, link)
                printf(" %c%s", c->added ? '+' : '-', c->word);
            printf("\n");
        } else if (strcmp(cmd, "oldest") == 0) {
            struct change *c = TAILQ_FIRST(&log);
            if (c == NULL)
                printf("history empty\n");
            else
                printf("oldest: %c%s\n", c->added ? '+' : '-', c->word);
        } else {
            printf("line %d: error: bad command\n", lineno);
        }
    }
    printf("final (%zu):", sl->sl_cur);
    for (size_t i = 0; i < sl->sl_cur; i++)
        printf(" %s", sl->sl_str[i]);
    printf("\n");
    while (!TAILQ_EMPTY(&log)) {
        struct change *c = TAILQ_FIRST(&log);
        TAILQ_REMOVE(&log, c, link);
        free(c->word);
        free(c);
    }
    sl_free(sl, 1);
    return 0;
}

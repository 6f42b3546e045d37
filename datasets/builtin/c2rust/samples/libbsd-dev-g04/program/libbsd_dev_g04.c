/* chmod-calc: applies symbolic or octal chmod expressions to a starting mode and shows ls-style strings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bsd/unistd.h>
#include <bsd/string.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s TYPE:OCTAL EXPR...\n", argv[0]);
        return 2;
    }
    umask(022);
    const char *start = argv[1];
    mode_t type;
    switch (start[0]) {
    case 'f': type = S_IFREG; break;
    case 'd': type = S_IFDIR; break;
    case 'l': type = S_IFLNK; break;
    case 'c': type = S_IFCHR; break;
    case 'b': type = S_IFBLK; break;
    case 'p': type = S_IFIFO; break;
    case 's': type = S_IFSOCK; break;
    default:
        printf("error: unknown file type '%c'\n", start[0]);
        return 0;
    }
    if (start[0] == '\0' || start[1] != ':') {
        printf("error: expected TYPE:OCTAL, got '%s'\n", start);
        return 0;
    }
    char *end;
    unsigned long perm = strtoul(start + 2, &end, 8);
    if (start[2] == '\0' || *end != '\0' || perm > 07777) {
        printf("error: invalid octal mode '%s'\n", start + 2);
        return 0;
    }
    mode_t mode = type | (mode_t)perm;
    char text[16];
    strmode(mode, text);
    printf("start   %04o %s\n", (unsigned)(mode & 07777), text);
    for (int i = 2; i < argc; i++) {
        void *set = setmode(argv[i]);
        if (set == NULL) {
            printf("error: bad mode expression '%s'\n", argv[i]);
            continue;
        }
        mode = type | (getmode(set, mode) & 07777);
        free(set);
        strmode(mode, text);
        printf("%-7s %04o %s\n", argv[i], (unsigned)(mode & 07777), text);
    }
    return 0;
}

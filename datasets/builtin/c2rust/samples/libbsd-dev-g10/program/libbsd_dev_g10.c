/* slot-map: a fixed-size slot allocator on a BSD bitstring; commands come as arguments after the slot count. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bsd/bitstring.h>

static int parse_int(const char *s, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < 0 || v > 100000)
        return -1;
    *out = (int)v;
    return 0;
}

static void show(bitstr_t *bits, int nbits)
{
    int used = 0;
    printf("  map: ");
    for (int i = 0; i < nbits; i++) {
        int on = bit_test(bits, i) != 0;
        used += on;
        putchar(on ? '#' : '.');
        if (i % 8 == 7 && i + 1 < nbits)
            putchar(' ');
    }
    printf("\n  used %d of %d, bytes:", used, nbits);
    for (int i = 0; i < (int)bitstr_size(nbits); i++)
        printf(" %02x", bits[i]);
    printf("\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s NBITS [COMMAND...]\n", argv[0]);
        return 2;
    }
    int nbits;
    if (parse_int(argv[1], &nbits) != 0 || nbits < 1 || nbits > 4096) {
        printf("error: slot count must be 1..4096\n");
        return 0;
    }
    bitstr_t *bits = bit_alloc(nbits);
    printf("slots: %d (%d bytes)\n", nbits, (int)bitstr_size(nbits));
    for (int i = 2; i < argc; i++) {
        const char *cmd = argv[i];
        int a, b, r;
        if (strcmp(cmd, "alloc") == 0) {
            bit_ffc(bits, nbits, &r);
            if (r < 0) {
                printf("alloc: full\n");
            } else {
                bit_set(bits, r);
                printf("alloc: slot %d\n", r);
            }
        } else if (strcmp(cmd, "first") == 0) {
            bit_ffs(bits, nbits, &r);
            printf("first used: %d\n", r);
        } else if (strcmp(cmd, "show") == 0) {
            printf("show:\n");
            show(bits, nbits);
        } else if (strncmp(cmd, "free:", 5) == 0 || strncmp(cmd, "take:", 5) == 0
                   || strncmp(cmd, "test:", 5) == 0) {
            if (parse_int(cmd + 5, &a) != 0 || a >= nbits) {
                printf("%s: error: slot out of range\n", cmd);
                continue;
            }
            if (cmd[1] == 'r') {
                printf("free %d: %s\n", a, bit_test(bits, a) ? "released" : "was free");
                bit_clear(bits, a);
            } else if (cmd[1] == 'a') {
                printf("take %d: %s\n", a, bit_test(bits, a) ? "already used" : "taken");
                bit_set(bits, a);
            } else {
                printf("test %d: %s\n", a, bit_test(bits, a) ? "used" : "free");
            }
        } else if (strncmp(cmd, "fill:", 5) == 0 || strncmp(cmd, "wipe:", 5) == 0) {
            char buf[32];
            const char *dash = strchr(cmd + 5, '-');
            size_t len = dash ? (size_t)(dash - (cmd + 5)) : 0;
            if (dash == NULL || len >= sizeof buf) {
                printf("%s: error: expected START-STOP\n", cmd);
                continue;
            }
            memcpy(buf, cmd + 5, len);
            buf[len] = '\0';
            if (parse_int(buf, &a) != 0 || parse_int(dash + 1, &b) != 0 || a > b || b >= nbits) {
                printf("%s: error: bad range\n", cmd);
                continue;
            }
            if (cmd[0] == 'f')
                bit_nset(bits, a, b);
            else
                bit_nclear(bits, a, b);
            printf("%s %d-%d: done\n", cmd[0] == 'f' ? "fill" : "wipe", a, b);
        } else {
            printf("%s: error: unknown command\n", cmd);
        }
    }
    printf("final:\n");
    show(bits, nbits);
    free(bits);
    return 0;
}

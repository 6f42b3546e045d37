/* byte-pack: packs integers into big- and little-endian byte strings and reads hex bytes back as integers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <stdint.h>
#include <inttypes.h>
#include <bsd/sys/endian.h>

static void hex(const unsigned char *b, int n)
{
    for (int i = 0; i < n; i++)
        printf("%s%02x", i ? " " : "", b[i]);
}

static int pack(const char *width, const char *text)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 0);
    if (*text == '\0' || *end != '\0' || errno != 0 || text[0] == '-') {
        printf("error: bad number '%s'\n", text);
        return 0;
    }
    unsigned char be[8], le[8];
    int n;
    if (strcmp(width, "16") == 0) {
        if (v > 0xffffULL) { printf("error: %s does not fit in 16 bits\n", text); return 0; }
        be16enc(be, (uint16_t)v);
        le16enc(le, (uint16_t)v);
        n = 2;
    } else if (strcmp(width, "32") == 0) {
        if (v > 0xffffffffULL) { printf("error: %s does not fit in 32 bits\n", text); return 0; }
        be32enc(be, (uint32_t)v);
        le32enc(le, (uint32_t)v);
        n = 4;
    } else {
        printf("error: width must be 16 or 32\n");
        return 0;
    }
    printf("%s as u%s\n  be: ", text, width);
    hex(be, n);
    printf("\n  le: ");
    hex(le, n);
    printf("\n");
    return 0;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int unpack(const char *text)
{
    unsigned char b[8];
    int n = 0;
    const char *p = text;
    while (*p) {
        if (*p == ' ' || *p == ':') { p++; continue; }
        int hi = hexval(p[0]);
        int lo = hi < 0 ? -1 : hexval(p[1]);
        if (lo < 0) {
            printf("error: bad hex bytes '%s'\n", text);
            return 0;
        }
        if (n == 8) {
            printf("error: more than 8 bytes\n");
            return 0;
        }
        b[n++] = (unsigned char)(hi * 16 + lo);
        p += 2;
    }
    printf("bytes: %d\n", n);
    if (n >= 2)
        printf("  u16 be=%u le=%u\n", be16dec(b), le16dec(b));
    if (n >= 4)
        printf("  u32 be=%" PRIu32 " le=%" PRIu32 "\n", be32dec(b), le32dec(b));
    if (n >= 4 && n % 4 == 0) {
        printf("  u32 words be:");
        for (int i = 0; i < n; i += 4)
            printf(" %" PRIu32, be32dec(b + i));
        printf("\n");
    }
    if (n < 2)
        printf("  too short to decode\n");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s pack 16|32 N... | unpack HEX...\n", argv[0]);
        return 2;
    }
    if (strcmp(argv[1], "pack") == 0) {
        if (argc < 3) {
            printf("error: pack needs a width\n");
            return 0;
        }
        for (int i = 3; i < argc; i++)
            pack(argv[2], argv[i]);
    } else if (strcmp(argv[1], "unpack") == 0) {
        for (int i = 2; i < argc; i++)
            unpack(argv[i]);
    } else {
        printf("error: unknown command '%s'\n", argv[1]);
    }
    return 0;
}

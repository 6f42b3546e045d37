// Detects the Unicode encoding of stdin (BOM or RFC 4627 null pattern) with RapidJSON's AutoUTFInputStream and lists its code points.
#include "rapidjson/encodedstream.h"
#include "rapidjson/memorystream.h"
#include <cstdio>
#include <cstring>
#include <iostream>
#include <iterator>
#include <string>

using namespace rapidjson;

static const char *names[] = {"UTF-8", "UTF-16LE", "UTF-16BE", "UTF-32LE", "UTF-32BE"};
static const char *flags[] = {"utf8", "utf16le", "utf16be", "utf32le", "utf32be"};

int main(int argc, char **argv)
{
    if (argc > 2) {
        std::fprintf(stderr, "usage: %s [DEFAULT_ENCODING] < input\n", argv[0]);
        return 2;
    }
    UTFType fallback = kUTF8;
    if (argc == 2) {
        int found = -1;
        for (int k = 0; k < 5; k++)
            if (std::strcmp(argv[1], flags[k]) == 0) found = k;
        if (found < 0) {
            std::printf("error: unknown encoding '%s' (utf8, utf16le, utf16be, utf32le, utf32be)\n", argv[1]);
            return 0;
        }
        fallback = static_cast<UTFType>(found);
    }
    std::string data((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    MemoryStream mem(data.data(), data.size());
    AutoUTFInputStream<unsigned, MemoryStream> eis(mem, fallback);
    UTFType type = eis.GetType();
    std::printf("encoding: %s%s\n", names[type], eis.HasBOM() ? " (with BOM)" : "");
    std::printf("bytes: %zu\n", data.size());
    size_t points = 0, ascii = 0;
    while (eis.Peek() != 0) {
        unsigned cp = 0;
        if (!AutoUTF<unsigned>::Decode(eis, &cp)) {
            std::printf("error: invalid %s sequence before byte offset %zu\n", names[type], eis.Tell());
            break;
        }
        if (points < 64)
            std::printf("U+%04X\n", cp);
        else if (points == 64)
            std::printf("...\n");
        points++;
        if (cp < 0x80) ascii++;
    }
    std::printf("code points: %zu (ascii %zu)\n", points, ascii);
    return 0;
}

// Quotes each argument as a JSON string literal with RapidJSON's Writer (utf8: non-ASCII kept raw; ascii: escaped as \uXXXX).
#include "rapidjson/writer.h"
#include "rapidjson/stringbuffer.h"
#include <cstdio>
#include <cstring>

using namespace rapidjson;

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s utf8|ascii [STRING...]\n", argv[0]);
        return 2;
    }
    const char *mode = argv[1];
    if (std::strcmp(mode, "utf8") != 0 && std::strcmp(mode, "ascii") != 0) {
        std::printf("error: unknown mode '%s'\n", mode);
        return 0;
    }
    int failed = 0;
    for (int i = 2; i < argc; i++) {
        StringBuffer buf;
        bool ok;
        if (mode[0] == 'u') {
            Writer<StringBuffer> w(buf);
            ok = w.String(argv[i]);
        } else {
            Writer<StringBuffer, UTF8<>, ASCII<> > w(buf);
            ok = w.String(argv[i]);
        }
        if (ok) {
            std::printf("%d: %s\n", i - 1, buf.GetString());
        } else {
            std::printf("error: argument %d is not valid UTF-8\n", i - 1);
            failed++;
        }
    }
    std::printf("%d strings, %d rejected\n", argc - 2, failed);
    return 0;
}

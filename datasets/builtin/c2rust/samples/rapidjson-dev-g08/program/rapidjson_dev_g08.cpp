// Pretty-prints JSON read from stdin with RapidJSON's PrettyWriter (indent width/char and array style from argv, optional relaxed syntax).
#include "rapidjson/document.h"
#include "rapidjson/error/en.h"
#include "rapidjson/prettywriter.h"
#include "rapidjson/stringbuffer.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <iterator>
#include <string>

using namespace rapidjson;

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s INDENT [relaxed] [single-line-arrays] < json\n", argv[0]);
        return 2;
    }
    char indentChar = ' ';
    unsigned indentCount = 0;
    const char *spec = argv[1];
    if (std::strncmp(spec, "tab", 3) == 0) {
        indentChar = '\t';
        spec += 3;
        indentCount = 1;
    }
    if (*spec) {
        char *end = 0;
        long n = std::strtol(spec, &end, 10);
        if (*end != 0 || n < 0 || n > 16 || !(spec[0] >= '0' && spec[0] <= '9')) {
            std::printf("error: bad indent '%s' (N, tab or tabN with N in 0..16)\n", argv[1]);
            return 0;
        }
        indentCount = static_cast<unsigned>(n);
    }
    bool relaxed = false, singleLine = false;
    for (int i = 2; i < argc; i++) {
        if (std::strcmp(argv[i], "relaxed") == 0) relaxed = true;
        else if (std::strcmp(argv[i], "single-line-arrays") == 0) singleLine = true;
        else {
            std::printf("error: unknown option '%s'\n", argv[i]);
            return 0;
        }
    }
    std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    Document doc;
    ParseResult result = relaxed
        ? doc.Parse<kParseCommentsFlag | kParseTrailingCommasFlag | kParseNanAndInfFlag>(text.c_str(), text.size())
        : doc.Parse(text.c_str(), text.size());
    if (!result) {
        std::printf("error: %s (at offset %zu)\n", GetParseError_En(result.Code()), result.Offset());
        return 0;
    }
    StringBuffer buf;
    PrettyWriter<StringBuffer> pw(buf);
    pw.SetIndent(indentChar, indentCount);
    if (singleLine)
        pw.SetFormatOptions(kFormatSingleLineArray);
    if (!doc.Accept(pw)) {
        std::printf("error: NaN or Infinity cannot be written as JSON\n");
        return 0;
    }
    std::printf("%s\n", buf.GetString());
    return 0;
}

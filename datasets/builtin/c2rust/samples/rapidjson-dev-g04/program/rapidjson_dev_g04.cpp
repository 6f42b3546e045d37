// Splits a JSON Pointer (RFC 6901, plain or URI-fragment form) into its reference tokens with RapidJSON's Pointer.
#include "rapidjson/document.h"
#include "rapidjson/pointer.h"
#include <cstdio>

using namespace rapidjson;

static const char *reason(PointerParseErrorCode code)
{
    switch (code) {
    case kPointerParseErrorTokenMustBeginWithSolidus: return "a token must begin with '/'";
    case kPointerParseErrorInvalidEscape: return "invalid escape ('~' must be followed by 0 or 1)";
    case kPointerParseErrorInvalidPercentEncoding: return "invalid percent encoding";
    case kPointerParseErrorCharacterMustPercentEncode: return "character must be percent-encoded";
    default: return "unknown";
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s POINTER...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        Pointer ptr(argv[i]);
        std::printf("pointer '%s'\n", argv[i]);
        PointerParseErrorCode code = ptr.GetParseErrorCode();
        if (code != kPointerParseErrorNone) {
            std::printf("error: %s\n", reason(code));
            continue;
        }
        size_t count = ptr.GetTokenCount();
        const Pointer::Token *tokens = ptr.GetTokens();
        std::printf("  %zu token%s\n", count, count == 1 ? "" : "s");
        for (size_t t = 0; t < count; t++) {
            std::printf("  [%zu] name=\"", t);
            for (SizeType k = 0; k < tokens[t].length; k++) {
                unsigned char c = static_cast<unsigned char>(tokens[t].name[k]);
                if (c < 0x20 || c == '"' || c == '\\' || c == 0x7f)
                    std::printf("\\x%02x", c);
                else
                    std::putchar(c);
            }
            std::printf("\" length=%u", tokens[t].length);
            if (tokens[t].index == kPointerInvalidIndex)
                std::printf(" index=none\n");
            else
                std::printf(" index=%u\n", tokens[t].index);
        }
    }
    return 0;
}

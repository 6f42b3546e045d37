// Validates a JSON document from stdin against a JSON Schema given as the first argument with RapidJSON's SchemaValidator.
#include "rapidjson/document.h"
#include "rapidjson/schema.h"
#include "rapidjson/stringbuffer.h"
#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>

using namespace rapidjson;

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s SCHEMA_JSON < document\n", argv[0]);
        return 2;
    }
    Document sd;
    sd.Parse(argv[1]);
    if (sd.HasParseError()) {
        std::printf("error: schema is not valid JSON (offset %zu)\n", sd.GetErrorOffset());
        return 0;
    }
    std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    Document doc;
    doc.Parse(text.c_str(), text.size());
    if (doc.HasParseError()) {
        std::printf("error: document is not valid JSON (offset %zu)\n", doc.GetErrorOffset());
        return 0;
    }
    SchemaDocument schema(sd);
    SchemaValidator checker(schema);
    if (doc.Accept(checker) && checker.IsValid()) {
        std::printf("valid\n");
        return 0;
    }
    StringBuffer where;
    checker.GetInvalidSchemaPointer().StringifyUriFragment(where);
    StringBuffer what;
    checker.GetInvalidDocumentPointer().Stringify(what);
    std::printf("invalid\n");
    std::printf("keyword: %s\n", checker.GetInvalidSchemaKeyword());
    std::printf("schema: %s\n", where.GetString());
    std::printf("document: '%s'\n", what.GetString());
    return 0;
}

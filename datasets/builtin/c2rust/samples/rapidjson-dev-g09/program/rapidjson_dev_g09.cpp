// Looks up JSON Pointers (given as arguments) in a JSON document read from stdin and describes what each one points at.
#include "rapidjson/document.h"
#include "rapidjson/error/en.h"
#include "rapidjson/ostreamwrapper.h"
#include "rapidjson/pointer.h"
#include "rapidjson/writer.h"
#include <iostream>
#include <iterator>
#include <string>

using namespace rapidjson;

static const char *kinds[] = {"null", "false", "true", "object", "array", "string", "number"};

int main(int argc, char **argv)
{
    std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    Document doc;
    doc.Parse(text.c_str(), text.size());
    if (doc.HasParseError()) {
        std::cout << "error: invalid JSON: " << GetParseError_En(doc.GetParseError()) << " (offset "
                  << doc.GetErrorOffset() << ")\n";
        return 0;
    }
    int found = 0;
    for (int i = 1; i < argc; i++) {
        Pointer ptr(argv[i]);
        std::cout << argv[i] << ": ";
        if (!ptr.IsValid()) {
            std::cout << "error: invalid pointer\n";
            continue;
        }
        const Value *target = ptr.Get(doc);
        if (target == 0) {
            std::cout << "not found\n";
            continue;
        }
        found++;
        Type type = target->GetType();
        std::cout << kinds[type];
        if (type == kObjectType)
            std::cout << " with " << target->MemberCount() << " members";
        else if (type == kArrayType)
            std::cout << " with " << target->Size() << " elements";
        std::cout << " = ";
        OStreamWrapper out(std::cout);
        Writer<OStreamWrapper> w(out);
        target->Accept(w);
        std::cout << "\n";
    }
    std::cout << found << " of " << (argc - 1) << " found\n";
    return 0;
}

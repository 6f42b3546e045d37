// Turns key=value arguments into one JSON object with RapidJSON's Writer (null, true/false and integers typed, the rest strings).
#include "rapidjson/writer.h"
#include "rapidjson/ostreamwrapper.h"
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

using namespace rapidjson;

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (std::strchr(argv[i], '=') == 0) {
            std::cout << "error: argument " << i << " has no '=': " << argv[i] << "\n";
            return 0;
        }
    }
    OStreamWrapper out(std::cout);
    Writer<OStreamWrapper> w(out);
    int nulls = 0, bools = 0, ints = 0, strings = 0;
    w.StartObject();
    for (int i = 1; i < argc; i++) {
        const char *eq = std::strchr(argv[i], '=');
        std::string key(argv[i], eq - argv[i]);
        const char *value = eq + 1;
        w.Key(key.c_str(), static_cast<SizeType>(key.size()));
        char *end = 0;
        errno = 0;
        long long number = value[0] ? std::strtoll(value, &end, 10) : 0;
        if (std::strcmp(value, "null") == 0) {
            w.Null();
            nulls++;
        } else if (std::strcmp(value, "true") == 0 || std::strcmp(value, "false") == 0) {
            w.Bool(value[0] == 't');
            bools++;
        } else if (value[0] && *end == 0 && errno == 0 && (value[0] == '-' || (value[0] >= '0' && value[0] <= '9'))) {
            w.Int64(number);
            ints++;
        } else {
            w.String(value);
            strings++;
        }
    }
    w.EndObject();
    std::cout << "\n" << (argc - 1) << " members: " << nulls << " null, " << bools << " bool, " << ints
              << " integer, " << strings << " string\n";
    return 0;
}

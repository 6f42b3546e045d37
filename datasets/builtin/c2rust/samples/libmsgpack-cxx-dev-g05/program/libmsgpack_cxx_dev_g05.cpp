// Packs a list of "key=value" arguments as a MessagePack map, then reads it back as several typed C++ containers.
#include <msgpack.hpp>
#include <cstdlib>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char **argv)
{
    std::map<std::string, std::string> input;
    std::set<std::string> seen;
    int entries = 0;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        std::string::size_type eq = a.find('=');
        if (eq == std::string::npos || eq == 0) {
            std::cout << "error: argument " << i << " is not key=value\n";
            return 0;
        }
        if (seen.insert(a.substr(0, eq)).second) entries++;
        input[a.substr(0, eq)] = a.substr(eq + 1);
    }
    std::stringstream ss;
    msgpack::pack(ss, input);
    std::string packed = ss.str();
    std::cout << "packed " << entries << " entries into " << packed.length() << " bytes\n";

    msgpack::object_handle oh = msgpack::unpack(packed.c_str(), packed.length());
    msgpack::object obj = *oh;

    std::map<std::string, std::string> back = obj.as<std::map<std::string, std::string> >();
    std::cout << "as map<string,string>: " << (back == input ? "round trip ok" : "MISMATCH") << "\n";

    try {
        std::map<std::string, long long> nums;
        obj.convert(nums);
        std::cout << "as map<string,int64>:";
        for (const auto &kv : nums) std::cout << " " << kv.first << "=" << kv.second;
        std::cout << "\n";
    } catch (const msgpack::type_error &) {
        std::cout << "as map<string,int64>: type error\n";
    }
    // re-pack the values as numbers where they parse completely, strings otherwise
    std::map<std::string, msgpack::object> mixed;
    msgpack::zone z;
    for (const auto &kv : input) {
        char *end;
        long long v = std::strtoll(kv.second.c_str(), &end, 10);
        if (kv.second.length() > 0 && *end == 0) mixed[kv.first] = msgpack::object(v, z);
        else mixed[kv.first] = msgpack::object(kv.second, z);
    }
    msgpack::object mobj(mixed, z);
    std::cout << "mixed: " << mobj << "\n";
    try {
        std::map<std::string, long long> nums;
        mobj.convert(nums);
        long long sum = 0;
        for (const auto &kv : nums) sum += kv.second;
        std::cout << "mixed as map<string,int64>: sum " << sum << "\n";
    } catch (const msgpack::type_error &) {
        std::cout << "mixed as map<string,int64>: type error\n";
    }
    return 0;
}

// Applies push/pop/erase/swap commands to a RapidJSON array value of integers and prints the array after each step.
#include "rapidjson/document.h"
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace rapidjson;

static bool number(const char *text, long long &out)
{
    char *end = 0;
    errno = 0;
    out = std::strtoll(text, &end, 10);
    return text[0] != 0 && *end == 0 && errno == 0;
}

static void show(const Value &arr)
{
    std::printf("  [");
    for (SizeType i = 0; i < arr.Size(); i++)
        std::printf("%s%lld", i ? ", " : "", static_cast<long long>(arr[i].GetInt64()));
    std::printf("] size=%u\n", arr.Size());
}

int main(int argc, char **argv)
{
    MemoryPoolAllocator<> pool;
    Value arr(kArrayType);
    for (int i = 1; i < argc; i++) {
        const char *cmd = argv[i];
        long long a = 0, b = 0;
        std::printf("%s\n", cmd);
        if (std::strcmp(cmd, "pop") == 0) {
            if (arr.Empty()) {
                std::printf("error: pop from an empty array\n");
                continue;
            }
            arr.PopBack();
        } else if (std::strncmp(cmd, "push:", 5) == 0) {
            if (!number(cmd + 5, a)) {
                std::printf("error: push needs an integer\n");
                continue;
            }
            arr.PushBack(static_cast<int64_t>(a), pool);
        } else if (std::strncmp(cmd, "erase:", 6) == 0) {
            const char *colon = std::strchr(cmd + 6, ':');
            std::string first = colon ? std::string(cmd + 6, colon - (cmd + 6)) : std::string(cmd + 6);
            if (!number(first.c_str(), a) || (colon && !number(colon + 1, b))) {
                std::printf("error: erase needs integer positions\n");
                continue;
            }
            if (!colon) b = a + 1;
            if (arr.Empty()) {
                std::printf("error: erase from an empty array\n");
                continue;
            }
            if (a < 0 || b < a || b > static_cast<long long>(arr.Size())) {
                std::printf("error: range %lld..%lld outside 0..%u\n", a, b, arr.Size());
                continue;
            }
            arr.Erase(arr.Begin() + a, arr.Begin() + b);
        } else if (std::strncmp(cmd, "swap:", 5) == 0) {
            const char *colon = std::strchr(cmd + 5, ':');
            std::string first = colon ? std::string(cmd + 5, colon - (cmd + 5)) : std::string();
            if (!colon || !number(first.c_str(), a) || !number(colon + 1, b)) {
                std::printf("error: swap needs two integer positions\n");
                continue;
            }
            if (a < 0 || b < 0 || a >= static_cast<long long>(arr.Size()) || b >= static_cast<long long>(arr.Size())) {
                std::printf("error: position outside 0..%u\n", arr.Size());
                continue;
            }
            arr[static_cast<SizeType>(a)].Swap(arr[static_cast<SizeType>(b)]);
        } else {
            std::printf("error: unknown command\n");
            continue;
        }
        show(arr);
    }
    std::printf("final size %u\n", arr.Size());
    return 0;
}

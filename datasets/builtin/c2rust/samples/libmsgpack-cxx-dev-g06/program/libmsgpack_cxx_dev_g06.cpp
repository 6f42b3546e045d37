// Serialises an inventory item (name, quantity, price, tags) with MSGPACK_DEFINE_MAP and reads it back, also into an array-layout struct.
#include <msgpack.hpp>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

struct Item {
    std::string name;
    int qty = 0;
    double price = 0.0;
    std::vector<std::string> tags;
    MSGPACK_DEFINE_MAP(name, qty, price, tags);
};

struct ItemRow {
    std::string name;
    int qty = 0;
    MSGPACK_DEFINE(name, qty);
};

int main(int argc, char **argv)
{
    if (argc < 4) {
        std::cerr << "usage: " << argv[0] << " NAME QTY PRICE [TAG...]\n";
        return 2;
    }
    Item item;
    item.name = argv[1];
    char *end;
    errno = 0;
    long q = std::strtol(argv[2], &end, 10);
    if (*end || end == argv[2] || errno || q < -2147483647L - 1 || q > 2147483647L) {
        std::cout << "error: quantity must be a 32-bit integer\n";
        return 0;
    }
    item.qty = (int)q;
    item.price = std::strtod(argv[3], &end);
    if (*end || end == argv[3]) {
        std::cout << "error: price must be a number\n";
        return 0;
    }
    for (int i = 4; i < argc; i++) item.tags.push_back(argv[i]);

    msgpack::vrefbuffer vbuf;
    msgpack::pack(vbuf, item);
    std::string bytes;
    const struct iovec *iov = vbuf.vector();
    for (std::size_t i = 0; i < vbuf.vector_size(); i++)
        bytes.append((const char *)iov[i].iov_base, iov[i].iov_len);
    std::printf("encoded %zu bytes:", bytes.length());
    for (unsigned char c : bytes) std::printf(" %02x", c);
    std::printf("\n");

    msgpack::object_handle oh = msgpack::unpack(bytes.c_str(), bytes.length());
    Item back = oh->as<Item>();
    std::printf("name=%s qty=%d price=%.4f\n", back.name.c_str(), back.qty, back.price);
    int n = 0;
    for (const std::string &t : back.tags) std::printf("  tag %d: %s\n", ++n, t.c_str());
    std::printf("tags: %d\n", n);
    try {
        ItemRow row = oh->as<ItemRow>();
        std::printf("as array struct: name=%s qty=%d\n", row.name.c_str(), row.qty);
    } catch (const msgpack::type_error &) {
        std::printf("as array struct: type error (a map is not an array)\n");
    }
    return 0;
}

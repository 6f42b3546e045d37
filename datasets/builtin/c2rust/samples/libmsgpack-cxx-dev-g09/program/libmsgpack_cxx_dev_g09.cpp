// Decodes a hex-encoded MessagePack object under configurable size limits (array, map, str, bin, ext, depth) and reports which limit is exceeded.
#include <msgpack.hpp>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <string>

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 8) {
        std::cerr << "usage: " << argv[0] << " HEX [ARRAY MAP STR BIN EXT DEPTH]\n";
        return 2;
    }
    std::size_t lim[6] = {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff};
    for (int i = 2; i < argc; i++) {
        char *end;
        errno = 0;
        unsigned long v = std::strtoul(argv[i], &end, 10);
        if (*end || end == argv[i] || errno || argv[i][0] == '-' || v > 0xffffffffUL) {
            std::cout << "error: limit " << (i - 1) << " is not a number 0..4294967295\n";
            return 0;
        }
        lim[i - 2] = v;
    }
    std::string raw;
    int hi = -1;
    for (const char *p = argv[1]; *p; p++) {
        if (std::isspace((unsigned char)*p)) continue;
        if (!std::isxdigit((unsigned char)*p)) {
            std::cout << "error: not a hex digit\n";
            return 0;
        }
        int v = std::isdigit((unsigned char)*p) ? *p - '0' : std::tolower((unsigned char)*p) - 'a' + 10;
        if (hi < 0) hi = v;
        else {
            raw += (char)(hi * 16 + v);
            hi = -1;
        }
    }
    if (hi >= 0) {
        std::cout << "error: odd number of hex digits\n";
        return 0;
    }
    std::cout << "limits: array " << lim[0] << ", map " << lim[1] << ", str " << lim[2] << ", bin " << lim[3]
              << ", ext " << lim[4] << ", depth " << lim[5] << "\n";
    try {
        msgpack::object_handle oh =
            msgpack::unpack(raw.c_str(), raw.length(), nullptr, nullptr,
                            msgpack::unpack_limit(lim[0], lim[1], lim[2], lim[3], lim[4], lim[5]));
        std::cout << "ok: " << *oh << "\n";
    } catch (const msgpack::array_size_overflow &) {
        std::cout << "rejected: array too large\n";
    } catch (const msgpack::map_size_overflow &) {
        std::cout << "rejected: map too large\n";
    } catch (const msgpack::str_size_overflow &) {
        std::cout << "rejected: string too long\n";
    } catch (const msgpack::bin_size_overflow &) {
        std::cout << "rejected: binary too long\n";
    } catch (const msgpack::ext_size_overflow &) {
        std::cout << "rejected: extension too long\n";
    } catch (const msgpack::depth_size_overflow &) {
        std::cout << "rejected: nested too deeply\n";
    } catch (const msgpack::insufficient_bytes &) {
        std::cout << "error: truncated input\n";
    } catch (const msgpack::parse_error &) {
        std::cout << "error: invalid input\n";
    }
    return 0;
}

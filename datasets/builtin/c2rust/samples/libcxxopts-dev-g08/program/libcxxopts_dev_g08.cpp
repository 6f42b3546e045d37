// Validates a command line against a strict cxxopts option table and names the kind of error when it is rejected.
#include <cxxopts.hpp>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    cxxopts::Options options("strict", "strict command line");
    options.add_option("", "a", "all", "include everything", cxxopts::value<bool>(), "");
    options.add_option("", "n", "number", "a count", cxxopts::value<int>(), "N");
    options.add_option("", "s", "small", "an 8-bit value", cxxopts::value<int8_t>(), "N");
    options.add_option("", "", "name", "a name", cxxopts::value<std::string>(), "TEXT");
    options.add_option("", "x", "letter", "a single character", cxxopts::value<char>(), "C");
    options.add_option("", "r", "ratio", "a real number", cxxopts::value<double>(), "R");
    options.add_option("", "k", "keep", "keep files (true/false)", cxxopts::value<bool>(), "");
    try {
        auto result = options.parse(argc, argv);
        std::cout << "ok\n";
        if (result["all"].as<bool>()) std::cout << "all: true\n";
        try {
            int n = result["number"].as<int>();
            std::cout << "number: " << n << "\n";
        } catch (const cxxopts::exceptions::option_has_no_value&) {
        }
        try {
            int s = static_cast<int>(result["small"].as<int8_t>());
            std::cout << "small: " << s << "\n";
        } catch (const cxxopts::exceptions::option_has_no_value&) {
        }
        try {
            std::string name = result["name"].as<std::string>();
            std::cout << "name: '" << name << "'\n";
        } catch (const cxxopts::exceptions::option_has_no_value&) {
        }
        try {
            char c = result["letter"].as<char>();
            std::cout << "letter: '" << c << "'\n";
        } catch (const cxxopts::exceptions::option_has_no_value&) {
        }
        try {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%.6f", result["ratio"].as<double>());
            std::cout << "ratio: " << buf << "\n";
        } catch (const cxxopts::exceptions::option_has_no_value&) {
        }
        if (result["keep"].as<bool>()) std::cout << "keep: true\n";
        const std::vector<std::string>& rest = result.unmatched();
        std::cout << "positional: " << rest.size() << "\n";
        for (size_t i = 0; i < rest.size(); i++) std::cout << "  '" << rest[i] << "'\n";
    } catch (const cxxopts::exceptions::no_such_option& e) {
        std::cout << "error: unknown option: " << e.what() << "\n";
        std::cout << options.program() << " knows:";
        for (const cxxopts::HelpOptionDetails& o : options.group_help("").options) {
            std::cout << " ";
            if (o.s.size()) std::cout << "-" << o.s << "/";
            std::cout << "--" << o.l[0];
            if (!o.is_boolean) std::cout << "=" << o.arg_help;
        }
        std::cout << "\n";
    } catch (const cxxopts::exceptions::missing_argument& e) {
        std::cout << "error: missing argument: " << e.what() << "\n";
    } catch (const cxxopts::exceptions::option_requires_argument& e) {
        std::cout << "error: requires argument: " << e.what() << "\n";
    } catch (const cxxopts::exceptions::invalid_option_syntax& e) {
        std::cout << "error: bad syntax: " << e.what() << "\n";
    } catch (const cxxopts::exceptions::incorrect_argument_type& e) {
        std::cout << "error: bad value: " << e.what() << "\n";
    } catch (const cxxopts::exceptions::exception& e) {
        std::cout << "error: other: " << e.what() << "\n";
    }
    return 0;
}

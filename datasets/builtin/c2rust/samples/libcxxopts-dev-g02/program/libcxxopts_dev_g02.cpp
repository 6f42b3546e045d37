// Classifies command-line tokens the way cxxopts' tokenizer sees them, and splits option specifiers like "v,verbose".
#include <cxxopts.hpp>
#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::cerr << "usage: " << argv[0] << " TOKEN... (spec:NAMES to split a specifier)\n";
        return 2;
    }
    int options = 0, plain = 0, specs = 0;
    for (int i = 1; i < argc; i++) {
        std::string tok = argv[i];
        if (tok.compare(0, 5, "spec:") == 0) {
            std::string names = tok.substr(5);
            specs++;
            try {
                std::vector<std::string> parts = cxxopts::values::parser_tool::split_option_names(names);
                std::cout << "spec '" << names << "': " << parts.size() << " name(s)";
                for (const std::string& p : parts) std::cout << " [" << p << "]";
                std::cout << "\n";
            } catch (const cxxopts::exceptions::exception& e) {
                std::cout << "spec '" << names << "': error: " << e.what() << "\n";
            }
            continue;
        }
        bool matched = false;
        cxxopts::values::parser_tool::ArguDesc d = cxxopts::values::parser_tool::ParseArgument(argv[i], matched);
        if (!matched) {
            plain++;
            std::cout << "'" << tok << "': positional\n";
            continue;
        }
        options++;
        if (d.grouping) {
            std::cout << "'" << tok << "': short group '" << d.arg_name << "' (" << d.arg_name.size() << " letters)\n";
        } else if (d.set_value) {
            std::cout << "'" << tok << "': long option '" << d.arg_name << "' with value '" << d.value << "'\n";
        } else {
            std::cout << "'" << tok << "': long option '" << d.arg_name << "'\n";
        }
    }
    std::cout << "options: " << options << ", positional: " << plain << ", specs: " << specs << "\n";
    return 0;
}

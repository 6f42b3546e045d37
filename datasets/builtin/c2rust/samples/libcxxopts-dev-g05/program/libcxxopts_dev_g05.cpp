// Lists what a lenient cxxopts parser collected: every recognised option occurrence in order, and the unrecognised leftovers.
#include <cxxopts.hpp>
#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    cxxopts::Options options("collect", "collect known options, keep the rest");
    options.allow_unrecognised_options();
    options.add_options()
        ("d,define", "define NAME=VALUE (repeatable)", cxxopts::value<std::vector<std::string>>())
        ("o,output", "output name", cxxopts::value<std::string>())
        ("l,level", "level 0-9", cxxopts::value<int>())
        ("q,quiet", "be quiet")
        ("color", "colour mode", cxxopts::value<std::string>());
    try {
        auto result = options.parse(argc, argv);
        const std::vector<cxxopts::KeyValue>& seq = result.arguments();
        std::cout << "recognised: " << seq.size() << "\n";
        for (size_t i = 0; i < seq.size(); i++) {
            std::cout << "  " << (i + 1) << ". " << seq[i].key() << " = '" << seq[i].value() << "'\n";
        }
        const std::vector<std::string>& rest = result.unmatched();
        std::cout << "unmatched: " << rest.size() << "\n";
        for (size_t i = 0; i < rest.size(); i++) {
            std::cout << "  [" << i << "] '" << rest[i] << "'\n";
        }
    } catch (const cxxopts::exceptions::exception& e) {
        std::cout << "error: " << e.what() << "\n";
    }
    return 0;
}

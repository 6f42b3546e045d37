// Resolves a build configuration from cxxopts options with defaults and implicit values, showing where each setting came from.
#include <cxxopts.hpp>
#include <cstdio>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    cxxopts::Options options("build", "resolve build settings");
    options.add_options()
        ("t,target", "target name", cxxopts::value<std::string>()->default_value("app"))
        ("j,jobs", "parallel jobs", cxxopts::value<int>()->default_value("1")->implicit_value("4"))
        ("O,opt", "optimisation level", cxxopts::value<int>()->default_value("0"))
        ("scale", "size factor", cxxopts::value<double>()->default_value("1.5"))
        ("strip", "strip symbols (needs true/false)", cxxopts::value<bool>()->default_value("false")->no_implicit_value())
        ("D,define", "macro definitions", cxxopts::value<std::vector<std::string>>()->default_value("NDEBUG,X=1"))
        ("g,debug", "debug info")
        ("prefix", "install prefix", cxxopts::value<std::string>());
    try {
        auto result = options.parse(argc, argv);
        std::set<std::string> defaulted;
        const std::vector<cxxopts::KeyValue>& defs = result.defaults();
        for (size_t i = 0; i < defs.size(); i++) defaulted.insert(defs[i].key());
        std::cout << "program: " << options.program() << "\n";
        auto src = [&](const char* k) {
            for (const std::string& name : defaulted) {
                if (name == k) return "default";
            }
            return "given";
        };
        std::cout << "target = " << result["target"].as<std::string>() << " [" << src("target") << "]\n";
        std::cout << "jobs = " << result["jobs"].as<int>() << " [" << src("jobs") << "]\n";
        std::cout << "opt = " << result["opt"].as<int>() << " [" << src("opt") << "]\n";
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.6f", result["scale"].as<double>());
        std::cout << "scale = " << buf << " [" << src("scale") << "]\n";
        std::cout << "strip = " << (result["strip"].as<bool>() ? "true" : "false") << " [" << src("strip") << "]\n";
        const std::vector<std::string>& d = result["define"].as<std::vector<std::string>>();
        std::cout << "define = (" << d.size() << ")";
        for (size_t i = 0; i < d.size(); i++) std::cout << " " << d[i];
        std::cout << " [" << src("define") << "]\n";
        std::cout << "debug = " << (result["debug"].as<bool>() ? "true" : "false") << " [" << src("debug") << "]\n";
        try {
            std::string prefix = result["prefix"].as<std::string>();
            std::cout << "prefix = " << prefix << "\n";
        } catch (const cxxopts::exceptions::option_has_no_value&) {
            std::cout << "prefix = (unset)\n";
        }
        std::istringstream lines(result.arguments_string());
        std::string line;
        std::vector<std::string> given;
        std::set<std::string> from_default;
        while (std::getline(lines, line)) {
            if (line.size() >= 10 && line.compare(line.size() - 10, 10, " (default)") == 0) from_default.insert(line);
            else given.push_back(line);
        }
        std::cout << "arguments (" << given.size() << "):\n";
        for (size_t i = 0; i < given.size(); i++) std::cout << "  " << given[i] << "\n";
        std::cout << "defaults (" << from_default.size() << "):\n";
        for (const std::string& l : from_default) std::cout << "  " << l << "\n";
    } catch (const cxxopts::exceptions::exception& e) {
        std::cout << "error: " << e.what() << "\n";
    }
    return 0;
}

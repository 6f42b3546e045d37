// A 3-D vector calculator: dot product, cross product and lengths of vectors given on the command line.
#include <glm/glm.hpp>
#include <cfloat>
#include <cstdio>
#include <cstdlib>
#include <cstring>

static bool num(const char* s, double& out)
{
    char* end = nullptr;
    if (*s == '\0') return false;
    out = std::strtod(s, &end);
    return *end == '\0' && out >= -DBL_MAX && out <= DBL_MAX;
}

int main(int argc, char** argv)
{
    if (argc != 5 && argc != 8) {
        std::fprintf(stderr, "usage: %s dot|cross|len X1 Y1 Z1 [X2 Y2 Z2]\n", argv[0]);
        return 2;
    }
    const char* op = argv[1];
    double v[6] = {0, 0, 0, 0, 0, 0};
    for (int i = 2; i < argc; i++) {
        if (!num(argv[i], v[i - 2])) {
            std::printf("error: invalid number '%s'\n", argv[i]);
            return 0;
        }
    }
    glm::dvec3 va(v[0], v[1], v[2]);
    glm::dvec3 vb(v[3], v[4], v[5]);
    bool two = argc == 8;
    if (std::strcmp(op, "len") == 0) {
        std::printf("|a| = %.6f\n", glm::length(va));
        if (two) std::printf("|b| = %.6f\n", glm::length(vb));
    } else if (std::strcmp(op, "dot") == 0) {
        if (!two) {
            std::printf("error: dot needs two vectors\n");
            return 0;
        }
        std::printf("a.b = %.6f\n", glm::dot(va, vb));
    } else if (std::strcmp(op, "cross") == 0) {
        if (!two) {
            std::printf("error: cross needs two vectors\n");
            return 0;
        }
        glm::dvec3 c = glm::cross(va, vb);
        std::printf("a x b = (%.6f, %.6f, %.6f)\n", c.x, c.y, c.z);
        std::printf("|a x b| = %.6f\n", glm::length(c));
    } else {
        std::printf("error: unknown operation '%s'\n", op);
    }
    return 0;
}

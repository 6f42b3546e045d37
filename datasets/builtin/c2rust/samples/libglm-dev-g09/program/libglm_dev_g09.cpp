// Traces a 2-D light ray hitting a surface: reflection, refraction (with total internal reflection), face-forwarded normal and travelled distance, using GLM.
#include <glm/glm.hpp>
#include <cfloat>
#include <cstdio>
#include <cstdlib>

static bool num(const char* s, double& out)
{
    char* end = nullptr;
    if (*s == '\0') return false;
    out = std::strtod(s, &end);
    return *end == '\0' && out >= -DBL_MAX && out <= DBL_MAX;
}

int main(int argc, char** argv)
{
    if (argc != 8) {
        std::fprintf(stderr, "usage: %s SX SY DX DY NX NY ETA\n", argv[0]);
        return 2;
    }
    double v[7];
    for (int i = 1; i < 8; i++) {
        if (!num(argv[i], v[i - 1])) {
            std::printf("error: invalid number '%s'\n", argv[i]);
            return 0;
        }
    }
    if (v[2] == 0.0 && v[3] == 0.0) {
        std::printf("error: zero direction\n");
        return 0;
    }
    if (v[4] == 0.0 && v[5] == 0.0) {
        std::printf("error: zero normal\n");
        return 0;
    }
    if (v[6] <= 0.0) {
        std::printf("error: eta must be positive\n");
        return 0;
    }
    glm::dvec2 start(v[0], v[1]);
    glm::dvec2 d = glm::normalize(glm::dvec2(v[2], v[3]));
    glm::dvec2 n = glm::normalize(glm::dvec2(v[4], v[5]));
    double eta = v[6];
    std::printf("direction (%.6f, %.6f)\n", d.x, d.y);
    std::printf("normal (%.6f, %.6f)\n", n.x, n.y);
    glm::dvec2 nf = glm::faceforward(n, d, n);
    std::printf("facing normal (%.6f, %.6f)%s\n", nf.x, nf.y, (nf.x != n.x || nf.y != n.y) ? " (flipped)" : "");
    glm::dvec2 r = glm::reflect(d, nf);
    std::printf("reflected (%.6f, %.6f)\n", r.x, r.y);
    glm::dvec2 t = glm::refract(d, nf, eta);
    if (t.x == 0.0 && t.y == 0.0) std::printf("refracted: total internal reflection\n");
    else std::printf("refracted (%.6f, %.6f)\n", t.x, t.y);
    /* the surface passes through the origin: where does the ray meet it? */
    double denom = d.x * nf.x + d.y * nf.y;
    if (denom == 0.0) {
        std::printf("hit: parallel to the surface\n");
        return 0;
    }
    double s = -(start.x * nf.x + start.y * nf.y) / denom;
    if (s < 0.0) {
        std::printf("hit: surface is behind the ray\n");
        return 0;
    }
    glm::dvec2 hit = start + d * s;
    std::printf("hit (%.6f, %.6f) after %.6f\n", hit.x, hit.y, glm::distance(start, hit));
    return 0;
}

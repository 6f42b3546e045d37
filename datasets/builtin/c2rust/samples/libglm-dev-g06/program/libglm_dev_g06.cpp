// Builds rotations from axis-angle pairs with GLM quaternions, interpolates between them and reports angles, axes, Euler angles and matrices.
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
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

static void describe(const char* name, const glm::dquat& q)
{
    std::printf("%s: w=%.6f x=%.6f y=%.6f z=%.6f\n", name, q.w, q.x, q.y, q.z);
    glm::dvec3 ax = glm::axis(q);
    std::printf("  angle %.6f deg, axis (%.6f, %.6f, %.6f)\n", glm::degrees(glm::angle(q)), ax.x, ax.y, ax.z);
    glm::dvec3 e = glm::degrees(glm::eulerAngles(q));
    std::printf("  euler pitch %.6f yaw %.6f roll %.6f\n", e.x, e.y, e.z);
}

int main(int argc, char** argv)
{
    if (argc != 9 && argc != 10) {
        std::fprintf(stderr, "usage: %s DEG1 AX1 AY1 AZ1 DEG2 AX2 AY2 AZ2 [T]\n", argv[0]);
        return 2;
    }
    double v[9];
    v[8] = 0.5;
    for (int i = 1; i < argc; i++) {
        if (!num(argv[i], v[i - 1])) {
            std::printf("error: invalid number '%s'\n", argv[i]);
            return 0;
        }
    }
    for (int k = 0; k < 2; k++) {
        double x = v[4 * k + 1], y = v[4 * k + 2], z = v[4 * k + 3];
        double len2 = x * x + y * y + z * z;
        if (len2 == 0.0) {
            std::printf("error: rotation %d has a zero axis\n", k + 1);
            return 0;
        }
    }
    if (v[8] < 0.0 || v[8] > 1.0) {
        std::printf("error: t must be between 0 and 1\n");
        return 0;
    }
    glm::dvec3 a1(v[1], v[2], v[3]), a2(v[5], v[6], v[7]);
    glm::dquat q1 = glm::angleAxis(glm::radians(v[0]), a1 / std::sqrt(v[1] * v[1] + v[2] * v[2] + v[3] * v[3]));
    glm::dquat q2 = glm::angleAxis(glm::radians(v[4]), a2 / std::sqrt(v[5] * v[5] + v[6] * v[6] + v[7] * v[7]));
    describe("q1", q1);
    describe("q2", q2);
    glm::dquat s = glm::slerp(q1, q2, v[8]);
    std::printf("slerp t=%.6f\n", v[8]);
    describe("s", s);
    glm::dquat inv = glm::conjugate(q1);
    std::printf("conjugate q1: w=%.6f x=%.6f y=%.6f z=%.6f\n", inv.w, inv.x, inv.y, inv.z);
    glm::dmat3 m = glm::mat3_cast(s);
    std::printf("matrix of s (rows):\n");
    for (int r = 0; r < 3; r++) std::printf("  %.6f %.6f %.6f\n", m[0][r], m[1][r], m[2][r]);
    return 0;
}

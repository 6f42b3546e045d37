// Reads an N x N matrix (N = 2, 3 or 4, row by row) from stdin and prints its transpose, determinant, inverse and element-wise square.
#include <glm/glm.hpp>
#include <cfloat>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

static bool num(const std::string& s, double& out)
{
    char* end = nullptr;
    if (s.size() == 0) return false;
    out = std::strtod(s.c_str(), &end);
    return *end == '\0' && out >= -DBL_MAX && out <= DBL_MAX;
}

static void show(const char* title, const double* m, int n)
{
    std::printf("%s:\n", title);
    for (int r = 0; r < n; r++) {
        for (int c = 0; c < n; c++) std::printf("%s%.6f", c ? " " : "  ", m[r * n + c] == 0.0 ? 0.0 : m[r * n + c]);
        std::printf("\n");
    }
}

template <int N, typename M>
static void run(const std::vector<double>& v)
{
    M a(1.0);
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++) a[c][r] = v[r * N + c]; /* glm is column-major */
    double buf[16];
    M t = glm::transpose(a);
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++) buf[r * N + c] = t[c][r];
    show("transpose", buf, N);
    double det = glm::determinant(a);
    std::printf("determinant: %.6f\n", det == 0.0 ? 0.0 : det);
    M sq = glm::matrixCompMult(a, a);
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++) buf[r * N + c] = sq[c][r];
    show("squared elements", buf, N);
    if (det == 0.0) {
        std::printf("inverse: singular\n");
        return;
    }
    M inv = glm::inverse(a);
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++) buf[r * N + c] = inv[c][r];
    show("inverse", buf, N);
}

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s 2|3|4 < matrix\n", argv[0]);
        return 2;
    }
    int n = 0;
    if (std::strcmp(argv[1], "2") == 0) n = 2;
    else if (std::strcmp(argv[1], "3") == 0) n = 3;
    else if (std::strcmp(argv[1], "4") == 0) n = 4;
    else {
        std::printf("error: size must be 2, 3 or 4\n");
        return 0;
    }
    std::vector<double> v;
    std::string tok;
    while (std::cin >> tok) {
        double x;
        if (!num(tok, x)) {
            std::printf("error: invalid number '%s'\n", tok.c_str());
            return 0;
        }
        v.push_back(x);
    }
    if ((int)v.size() != n * n) {
        std::printf("error: expected %d numbers, got %d\n", n * n, (int)v.size());
        return 0;
    }
    if (n == 2) run<2, glm::dmat2>(v);
    else if (n == 3) run<3, glm::dmat3>(v);
    else run<4, glm::dmat4>(v);
    return 0;
}

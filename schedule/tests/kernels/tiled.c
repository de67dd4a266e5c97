/* tiled: loops over tiles with floord/ceild bounds, a strided loop and
   integer division in a subscript */
#pragma GCC diagnostic ignored "-Wunknown-pragmas" /* for #pragma scop */
#include <stdio.h>

#define N 50
#define floord(n, d) (((n) < 0) ? -((-(n) + (d) - 1) / (d)) : (n) / (d))
#define ceild(n, d) (((n) < 0) ? -((-(n)) / (d)) : ((n) + (d) - 1) / (d))
#define min(a, b) ((a) < (b) ? (a) : (b))

static double x[N], y[N], z[N / 4 + 1], u[N];

int main(void)
{
  int it, i, j;
  double sum = 0.0;
  for (i = 0; i < N; i++) {
    x[i] = (double) (i % 9);
    u[i] = 0.0;
  }

#pragma scop
  for (it = 0; it <= floord(N - 1, 8); it++)
    for (i = 8 * it; i <= min(N - 1, 8 * it + 7); i++)
      y[i] = 2.0 * x[i] + 1.0;
  for (i = 0; i < N; i += 4)
    z[i / 4] = y[i];
  for (j = ceild(N, 2); j < N; j++)
    u[j] = y[j - ceild(N, 2)];
#pragma endscop

  for (i = 0; i < N; i++)
    sum += y[i] + u[i];
  for (i = 0; i <= (N - 1) / 4; i++)
    sum += z[i];
  printf("%.6f\n", sum);
  return 0;
}

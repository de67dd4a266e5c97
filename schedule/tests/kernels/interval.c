/* interval: interval dynamic programming (cheapest split of each range
   [i, i + len]), triangular iteration over lengths */
#pragma GCC diagnostic ignored "-Wunknown-pragmas" /* for #pragma scop */
#include <math.h>
#include <stdio.h>

#define N 30

static double C[N][N], w[N][N];

int main(void)
{
  int len, i, k;
  double sum = 0.0;
  for (i = 0; i < N; i++)
    for (k = 0; k < N; k++) {
      w[i][k] = (double) ((i + 3 * k) % 11);
      C[i][k] = 0.0;
    }

#pragma scop
  for (len = 1; len < N; len++)
    for (i = 0; i < N - len; i++) {
      C[i][i + len] = 1.0e30;
      for (k = i; k < i + len; k++)
        C[i][i + len] = fmin(C[i][i + len], C[i][k] + C[k + 1][i + len] + w[i][i + len]);
    }
#pragma endscop

  for (i = 0; i < N; i++)
    for (k = i; k < N; k++)
      sum += C[i][k];
  printf("%.6f\n", sum);
  return 0;
}

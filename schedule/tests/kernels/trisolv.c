/* trisolv: forward substitution, L x = b with L lower triangular */
#pragma GCC diagnostic ignored "-Wunknown-pragmas" /* for #pragma scop */
#include <stdio.h>

#define N 40

static double L[N][N], x[N], b[N];

int main(void)
{
  int i, j;
  double sum = 0.0;
  for (i = 0; i < N; i++) {
    b[i] = (double) (i + 1);
    for (j = 0; j <= i; j++)
      L[i][j] = (double) (i + N - j + 1) * 2 / N;
  }

#pragma scop
  for (i = 0; i < N; i++) {
    x[i] = b[i];
    for (j = 0; j < i; j++)
      x[i] -= L[i][j] * x[j];
    x[i] = x[i] / L[i][i];
  }
#pragma endscop

  for (i = 0; i < N; i++)
    sum += x[i];
  printf("%.6f\n", sum);
  return 0;
}

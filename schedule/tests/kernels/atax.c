/* atax: y := A^T (A x) */
#pragma GCC diagnostic ignored "-Wunknown-pragmas" /* for #pragma scop */
#include <stdio.h>

#define M 28
#define N 32

static double A[M][N], x[N], y[N], tmp[M];

int main(void)
{
  int i, j;
  double sum = 0.0;
  for (j = 0; j < N; j++)
    x[j] = 1.0 + (double) j / N;
  for (i = 0; i < M; i++)
    for (j = 0; j < N; j++)
      A[i][j] = (double) ((i + j) % N) / (5 * M);

#pragma scop
  for (i = 0; i < N; i++)
    y[i] = 0;
  for (i = 0; i < M; i++) {
    tmp[i] = 0.0;
    for (j = 0; j < N; j++)
      tmp[i] = tmp[i] + A[i][j] * x[j];
    for (j = 0; j < N; j++)
      y[j] = y[j] + A[i][j] * tmp[i];
  }
#pragma endscop

  for (i = 0; i < N; i++)
    sum += y[i];
  printf("%.6f\n", sum);
  return 0;
}

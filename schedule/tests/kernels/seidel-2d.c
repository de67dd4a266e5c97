/* seidel-2d: in-place 9-point Gauss-Seidel sweeps */
#pragma GCC diagnostic ignored "-Wunknown-pragmas" /* for #pragma scop */
#include <stdio.h>

#define T 6
#define N 26

static double A[N][N];

int main(void)
{
  int t, i, j;
  double sum = 0.0;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      A[i][j] = ((double) i * (j + 2) + 2) / N;

#pragma scop
  for (t = 0; t <= T - 1; t++)
    for (i = 1; i <= N - 2; i++)
      for (j = 1; j <= N - 2; j++)
        A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1]
                   + A[i][j - 1] + A[i][j] + A[i][j + 1]
                   + A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1]) / 9.0;
#pragma endscop

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      sum += A[i][j];
  printf("%.6f\n", sum);
  return 0;
}

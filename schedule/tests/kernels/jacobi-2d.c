/* jacobi-2d: T sweeps of a 5-point average over the interior */
#pragma GCC diagnostic ignored "-Wunknown-pragmas" /* for #pragma scop */
#include <stdio.h>

#define T 8
#define N 24

static double A[N][N], B[N][N];

int main(void)
{
  int t, i, j;
  double sum = 0.0;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      A[i][j] = (double) ((i * (j + 2)) % 9) / 9.0;
      B[i][j] = 0.0;
    }

#pragma scop
  for (t = 0; t < T; t++) {
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] + A[i - 1][j]);
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][j + 1] + B[i + 1][j] + B[i - 1][j]);
  }
#pragma endscop

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      sum += A[i][j];
  printf("%.6f\n", sum);
  return 0;
}

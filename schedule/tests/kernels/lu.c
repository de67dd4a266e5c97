/* lu: in-place LU decomposition without pivoting (L unit lower, U upper) */
#pragma GCC diagnostic ignored "-Wunknown-pragmas" /* for #pragma scop */
#include <stdio.h>

#define N 30

static double A[N][N];

int main(void)
{
  int i, j, k;
  double sum = 0.0;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      A[i][j] = (i == j) ? 2.0 * N : (double) ((i + 2 * j) % 7) / 7.0;

#pragma scop
  for (i = 0; i < N; i++) {
    for (j = 0; j < i; j++) {
      for (k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[k][j];
      A[i][j] /= A[j][j];
    }
    for (j = i; j < N; j++)
      for (k = 0; k < i; k++)
        A[i][j] -= A[i][k] * A[k][j];
  }
#pragma endscop

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      sum += A[i][j];
  printf("%.6f\n", sum);
  return 0;
}

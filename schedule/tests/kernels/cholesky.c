/* cholesky: in-place A = L L^T of a symmetric positive definite matrix */
#pragma GCC diagnostic ignored "-Wunknown-pragmas" /* for #pragma scop */
#include <math.h>
#include <stdio.h>

#define N 30

static double A[N][N];

int main(void)
{
  int i, j, k;
  double sum = 0.0;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      A[i][j] = (i == j) ? (double) N : 1.0 / (1 + i + j);

#pragma scop
  for (i = 0; i < N; i++) {
    for (j = 0; j < i; j++) {
      for (k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[j][k];
      A[i][j] /= A[j][j];
    }
    for (k = 0; k < i; k++)
      A[i][i] -= A[i][k] * A[i][k];
    A[i][i] = sqrt(A[i][i]);
  }
#pragma endscop

  for (i = 0; i < N; i++)
    for (j = 0; j <= i; j++)
      sum += A[i][j];
  printf("%.6f\n", sum);
  return 0;
}

/* syrk: the lower triangle of C := alpha * A * A^T + beta * C */
#pragma GCC diagnostic ignored "-Wunknown-pragmas" /* for #pragma scop */
#include <stdio.h>

#define N 24
#define M 20

static double A[N][M], C[N][N];
static double alpha = 1.5, beta = 1.2;

int main(void)
{
  int i, j, k;
  double sum = 0.0;
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      A[i][j] = (double) ((i * j + 1) % N) / N;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      C[i][j] = (double) ((i * j + 2) % M) / M;

#pragma scop
  for (i = 0; i < N; i++) {
    for (j = 0; j <= i; j++)
      C[i][j] *= beta;
    for (k = 0; k < M; k++)
      for (j = 0; j <= i; j++)
        C[i][j] += alpha * A[i][k] * A[j][k];
  }
#pragma endscop

  for (i = 0; i < N; i++)
    for (j = 0; j <= i; j++)
      sum += C[i][j];
  printf("%.6f\n", sum);
  return 0;
}

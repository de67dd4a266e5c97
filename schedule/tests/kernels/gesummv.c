/* gesummv: y := alpha * A x + beta * B x */
#pragma GCC diagnostic ignored "-Wunknown-pragmas" /* for #pragma scop */
#include <stdio.h>

#define N 30

static double A[N][N], B[N][N], x[N], y[N], tmp[N];
static double alpha = 1.5, beta = 1.2;

int main(void)
{
  int i, j;
  double sum = 0.0;
  for (i = 0; i < N; i++) {
    x[i] = (double) (i % N) / N;
    for (j = 0; j < N; j++) {
      A[i][j] = (double) ((i * j + 1) % N) / N;
      B[i][j] = (double) ((i * j + 2) % N) / N;
    }
  }

#pragma scop
  for (i = 0; i < N; i++) {
    tmp[i] = 0.0;
    y[i] = 0.0;
    for (j = 0; j < N; j++) {
      tmp[i] = A[i][j] * x[j] + tmp[i];
      y[i] = B[i][j] * x[j] + y[i];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }
#pragma endscop

  for (i = 0; i < N; i++)
    sum += y[i];
  printf("%.6f\n", sum);
  return 0;
}

/* gemm: C := alpha * A * B + beta * C */
#pragma GCC diagnostic ignored "-Wunknown-pragmas" /* for #pragma scop */
#include <stdio.h>

#define NI 20
#define NJ 24
#define NK 22

static double A[NI][NK], B[NK][NJ], C[NI][NJ];
static double alpha = 1.5, beta = 1.2;

int main(void)
{
  int i, j, k;
  double sum = 0.0;
  for (i = 0; i < NI; i++)
    for (k = 0; k < NK; k++)
      A[i][k] = (double) ((i * k + 1) % NI) / NI;
  for (k = 0; k < NK; k++)
    for (j = 0; j < NJ; j++)
      B[k][j] = (double) ((k * (j + 1)) % NJ) / NJ;
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++)
      C[i][j] = (double) ((i * j + 2) % NK) / NK;

#pragma scop
  for (i = 0; i < NI; i++) {
    for (j = 0; j < NJ; j++)
      C[i][j] *= beta;
    for (k = 0; k < NK; k++)
      for (j = 0; j < NJ; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
  }
#pragma endscop

  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++)
      sum += C[i][j];
  printf("%.6f\n", sum);
  return 0;
}

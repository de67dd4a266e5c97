/* 2mm: D := alpha * A * B * C + beta * D, through tmp = alpha * A * B */
#pragma GCC diagnostic ignored "-Wunknown-pragmas" /* for #pragma scop */
#include <stdio.h>

#define NI 16
#define NJ 18
#define NK 20
#define NL 22

static double A[NI][NK], B[NK][NJ], C[NJ][NL], D[NI][NL], tmp[NI][NJ];
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
      B[k][j] = (double) (k * (j + 1) % NJ) / NJ;
  for (j = 0; j < NJ; j++)
    for (k = 0; k < NL; k++)
      C[j][k] = (double) ((j * (k + 3) + 1) % NL) / NL;
  for (i = 0; i < NI; i++)
    for (k = 0; k < NL; k++)
      D[i][k] = (double) (i * (k + 2) % NK) / NK;

#pragma scop
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++) {
      tmp[i][j] = 0.0;
      for (k = 0; k < NK; ++k)
        tmp[i][j] += alpha * A[i][k] * B[k][j];
    }
  for (i = 0; i < NI; i++)
    for (j = 0; j < NL; j++) {
      D[i][j] *= beta;
      for (k = 0; k < NJ; ++k)
        D[i][j] += tmp[i][k] * C[k][j];
    }
#pragma endscop

  for (i = 0; i < NI; i++)
    for (j = 0; j < NL; j++)
      sum += D[i][j];
  printf("%.6f\n", sum);
  return 0;
}

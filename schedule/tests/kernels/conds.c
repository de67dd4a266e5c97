/* conds: if/else chains in loop bodies, with ==, <, ||, ! and % */
#pragma GCC diagnostic ignored "-Wunknown-pragmas" /* for #pragma scop */
#include <stdio.h>

#define N 32

static double A[N][N], B[N][N], x[N];

int main(void)
{
  int i, j;
  double sum = 0.0;
  for (i = 0; i < N; i++) {
    x[i] = 0.0;
    for (j = 0; j < N; j++)
      B[i][j] = (double) ((i * 5 + j) % 13);
  }

#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      if (i == j)
        A[i][j] = 1.0;
      else if (i < j)
        A[i][j] = B[i][j] * 2.0;
      else
        A[i][j] = -B[j][i];
    }
  for (i = 0; i < N; i++)
    if (!(i % 3 == 0) || i >= N - 2)
      x[i] = A[i][i] + 1.0;
#pragma endscop

  for (i = 0; i < N; i++) {
    sum += x[i];
    for (j = 0; j < N; j++)
      sum += A[i][j];
  }
  printf("%.6f\n", sum);
  return 0;
}

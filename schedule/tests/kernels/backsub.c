/* backsub: back substitution U x = b with decreasing loops (the schedule
   runs over -i) */
#pragma GCC diagnostic ignored "-Wunknown-pragmas" /* for #pragma scop */
#include <stdio.h>

#define N 40

static double U[N][N], x[N], b[N];

int main(void)
{
  int i, j;
  double sum = 0.0;
  for (i = 0; i < N; i++) {
    b[i] = (double) (N - i);
    for (j = i; j < N; j++)
      U[i][j] = (i == j) ? 4.0 : 1.0 / (j - i + 1);
  }

#pragma scop
  for (i = N - 1; i >= 0; i--) {
    x[i] = b[i];
    for (j = i + 1; j < N; j++)
      x[i] -= U[i][j] * x[j];
    x[i] /= U[i][i];
  }
#pragma endscop

  for (i = 0; i < N; i++)
    sum += x[i];
  printf("%.6f\n", sum);
  return 0;
}

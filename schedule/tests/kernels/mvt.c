/* mvt: x1 := x1 + A y1 and x2 := x2 + A^T y2 */
#pragma GCC diagnostic ignored "-Wunknown-pragmas" /* for #pragma scop */
#include <stdio.h>

#define N 36

static double A[N][N], x1[N], x2[N], y1[N], y2[N];

int main(void)
{
  int i, j;
  double sum = 0.0;
  for (i = 0; i < N; i++) {
    x1[i] = (double) (i % N) / N;
    x2[i] = (double) ((i + 1) % N) / N;
    y1[i] = (double) ((i + 3) % N) / N;
    y2[i] = (double) ((i + 4) % N) / N;
    for (j = 0; j < N; j++)
      A[i][j] = (double) (i * j % N) / N;
  }

#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      x1[i] = x1[i] + A[i][j] * y1[j];
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      x2[i] = x2[i] + A[j][i] * y2[j];
#pragma endscop

  for (i = 0; i < N; i++)
    sum += x1[i] + x2[i];
  printf("%.6f\n", sum);
  return 0;
}

/* scalars: row norms of a weighted matrix through scalar temporaries */
#pragma GCC diagnostic ignored "-Wunknown-pragmas" /* for #pragma scop */
#include <math.h>
#include <stdio.h>

#define N 20
#define M 30

static double A[N][M], w[M], norm[N];

int main(void)
{
  int i, j;
  double sum = 0.0;
  for (j = 0; j < M; j++)
    w[j] = 1.0 / (j + 1);
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      A[i][j] = (double) ((i + 1) * (j + 2) % 17);

#pragma scop
  for (i = 0; i < N; i++) {
    double acc = 0.0;
    for (j = 0; j < M; j++) {
      double v = A[i][j] * w[j];
      acc += v * v;
    }
    norm[i] = sqrt(acc);
  }
#pragma endscop

  for (i = 0; i < N; i++)
    sum += norm[i];
  printf("%.6f\n", sum);
  return 0;
}

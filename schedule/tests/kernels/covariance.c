/* covariance: column means, centring, then the upper triangle of the
   covariance matrix mirrored to the lower one */
#pragma GCC diagnostic ignored "-Wunknown-pragmas" /* for #pragma scop */
#include <stdio.h>

#define M 20
#define N 24

static double data[N][M], mean[M], cov[M][M];

int main(void)
{
  int i, j, k;
  double sum = 0.0;
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      data[i][j] = (double) (i * j) / M + i;

#pragma scop
  for (j = 0; j < M; j++) {
    mean[j] = 0.0;
    for (i = 0; i < N; i++)
      mean[j] += data[i][j];
    mean[j] /= (double) N;
  }
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      data[i][j] -= mean[j];
  for (i = 0; i < M; i++)
    for (j = i; j < M; j++) {
      cov[i][j] = 0.0;
      for (k = 0; k < N; k++)
        cov[i][j] += data[k][i] * data[k][j];
      cov[i][j] /= (N - 1.0);
      cov[j][i] = cov[i][j];
    }
#pragma endscop

  for (i = 0; i < M; i++)
    for (j = 0; j < M; j++)
      sum += cov[i][j];
  printf("%.6f\n", sum);
  return 0;
}

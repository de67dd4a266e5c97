/* bicg: the two matrix-vector products of BiCG, s := A^T r and q := A p */
#pragma GCC diagnostic ignored "-Wunknown-pragmas" /* for #pragma scop */
#include <stdio.h>

#define M 30
#define N 26

static double A[N][M], r[N], p[M], s[M], q[N];

int main(void)
{
  int i, j;
  double sum = 0.0;
  for (i = 0; i < M; i++)
    p[i] = (double) (i % M) / M;
  for (i = 0; i < N; i++) {
    r[i] = (double) (i % N) / N;
    for (j = 0; j < M; j++)
      A[i][j] = (double) (i * (j + 1) % N) / N;
  }

#pragma scop
  for (i = 0; i < M; i++)
    s[i] = 0;
  for (i = 0; i < N; i++) {
    q[i] = 0.0;
    for (j = 0; j < M; j++) {
      s[j] = s[j] + r[i] * A[i][j];
      q[i] = q[i] + A[i][j] * p[j];
    }
  }
#pragma endscop

  for (i = 0; i < M; i++)
    sum += s[i];
  for (i = 0; i < N; i++)
    sum += q[i];
  printf("%.6f\n", sum);
  return 0;
}

/* banddp: banded edit-distance-like dynamic programming; the band
   |i - j| <= W gives min/max loop bounds */
#pragma GCC diagnostic ignored "-Wunknown-pragmas" /* for #pragma scop */
#include <stdio.h>

#define N 40
#define W 3
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))

static double D[N][N], cost[N][N];

int main(void)
{
  int i, j;
  double sum = 0.0;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      cost[i][j] = (double) ((i * 7 + j * 3) % 5);
      D[i][j] = (i == 0 || j == 0) ? (double) (i + j) : 1000.0;
    }

#pragma scop
  for (i = 1; i < N; i++)
    for (j = max(1, i - W); j <= min(N - 1, i + W); j++)
      D[i][j] = D[i - 1][j] + 1.0 < D[i][j - 1] + 1.0
                  ? (D[i - 1][j] + 1.0 < D[i - 1][j - 1] + cost[i][j] ? D[i - 1][j] + 1.0 : D[i - 1][j - 1] + cost[i][j])
                  : (D[i][j - 1] + 1.0 < D[i - 1][j - 1] + cost[i][j] ? D[i][j - 1] + 1.0 : D[i - 1][j - 1] + cost[i][j]);
#pragma endscop

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      if (D[i][j] < 1000.0)
        sum += D[i][j];
  printf("%.6f\n", sum);
  return 0;
}

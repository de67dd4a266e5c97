/* floyd-warshall: all-pairs shortest paths, relaxed through each k */
#pragma GCC diagnostic ignored "-Wunknown-pragmas" /* for #pragma scop */
#include <stdio.h>

#define N 40

static int path[N][N];

int main(void)
{
  int i, j, k;
  long sum = 0;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      path[i][j] = (i == j) ? 0 : ((i * j) % 7 + 1 + (i + j) % 13) * ((j - i + N) % 3 == 0 ? 1 : 9);

#pragma scop
  for (k = 0; k < N; k++)
    for (i = 0; i < N; i++)
      for (j = 0; j < N; j++)
        path[i][j] = path[i][j] < path[i][k] + path[k][j] ? path[i][j] : path[i][k] + path[k][j];
#pragma endscop

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      sum += path[i][j];
  printf("%ld\n", sum);
  return 0;
}

/* fdtd-2d: a 2-d finite-difference time-domain update of ex, ey, hz */
#pragma GCC diagnostic ignored "-Wunknown-pragmas" /* for #pragma scop */
#include <stdio.h>

#define T 8
#define NX 20
#define NY 24

static double ex[NX][NY], ey[NX][NY], hz[NX][NY], fict[T];

int main(void)
{
  int t, i, j;
  double sum = 0.0;
  for (t = 0; t < T; t++)
    fict[t] = (double) t;
  for (i = 0; i < NX; i++)
    for (j = 0; j < NY; j++) {
      ex[i][j] = ((double) i * (j + 1)) / NX;
      ey[i][j] = ((double) i * (j + 2)) / NY;
      hz[i][j] = ((double) i * (j + 3)) / NX;
    }

#pragma scop
  for (t = 0; t < T; t++) {
    for (j = 0; j < NY; j++)
      ey[0][j] = fict[t];
    for (i = 1; i < NX; i++)
      for (j = 0; j < NY; j++)
        ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
    for (i = 0; i < NX; i++)
      for (j = 1; j < NY; j++)
        ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
    for (i = 0; i < NX - 1; i++)
      for (j = 0; j < NY - 1; j++)
        hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
  }
#pragma endscop

  for (i = 0; i < NX; i++)
    for (j = 0; j < NY; j++)
      sum += hz[i][j];
  printf("%.6f\n", sum);
  return 0;
}

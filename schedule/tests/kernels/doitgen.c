/* doitgen: a multiresolution kernel, A[r][q][:] := A[r][q][:] * C4 */
#pragma GCC diagnostic ignored "-Wunknown-pragmas" /* for #pragma scop */
#include <stdio.h>

#define NR 10
#define NQ 8
#define NP 12

static double A[NR][NQ][NP], C4[NP][NP], sum[NP];

int main(void)
{
  int r, q, p, s;
  double total = 0.0;
  for (r = 0; r < NR; r++)
    for (q = 0; q < NQ; q++)
      for (p = 0; p < NP; p++)
        A[r][q][p] = (double) ((r * q + p) % NP) / NP;
  for (r = 0; r < NP; r++)
    for (p = 0; p < NP; p++)
      C4[r][p] = (double) (r * p % NP) / NP;

#pragma scop
  for (r = 0; r < NR; r++)
    for (q = 0; q < NQ; q++) {
      for (p = 0; p < NP; p++) {
        sum[p] = 0.0;
        for (s = 0; s < NP; s++)
          sum[p] += A[r][q][s] * C4[s][p];
      }
      for (p = 0; p < NP; p++)
        A[r][q][p] = sum[p];
    }
#pragma endscop

  for (r = 0; r < NR; r++)
    for (q = 0; q < NQ; q++)
      for (p = 0; p < NP; p++)
        total += A[r][q][p];
  printf("%.6f\n", total);
  return 0;
}

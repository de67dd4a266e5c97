/* jacobi-1d: T sweeps of a 3-point average, ping-ponging between A and B */
#pragma GCC diagnostic ignored "-Wunknown-pragmas" /* for #pragma scop */
#include <stdio.h>

#define T 10
#define N 50

static double A[N], B[N];

int main(void)
{
  int t, i;
  double sum = 0.0;
  for (i = 0; i < N; i++) {
    A[i] = (double) (i % 5) + 1.0;
    B[i] = 0.0;
  }

#pragma scop
  for (t = 0; t < T; t++) {
    for (i = 1; i < N - 1; i++)
      B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
    for (i = 1; i < N - 1; i++)
      A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);
  }
#pragma endscop

  for (i = 0; i < N; i++)
    sum += A[i];
  printf("%.6f\n", sum);
  return 0;
}

/* sscanf's and fscanf's floating conversions: glibc's vfscanf collects
   the characters that may belong to a number, then converts them with
   strtof, strtod or strtold. Every test runs against glibc's own. */
#include <stdio.h>

/* A field of one character: a digit, a point, a sign, the start of
   "nan" or "inf", or something else. */
int width_one(const char *s) {
  float x;
  return sscanf(s, "%1f", &x);
}

/* A reading and the character after it. */
int too_hot(const char *line) {
  double t;
  int n = 0;
  if (sscanf(line, "t=%lf%n", &t, &n) != 1)
    return -1;
  if (line[n] != 'C')
    return -2;
  return t > 30.0;
}

/* How many characters a field of at most 3 takes: "1e+" is all three,
   though the number is 1; "0x" alone is no number. */
int taken(const char *s) {
  double d = 0;
  int n = -1;
  int r = sscanf(s, "%3la%n", &d, &n);
  return r * 10 + n;
}

/* long double, in x87's 80 bits. */
long double extended(const char *s) {
  long double v = 0;
  if (sscanf(s, "%Lf", &v) != 1)
    return -1;
  return v;
}

/* What fscanf leaves in the stream for the next read. */
int then_next(FILE *f) {
  float a;
  int r = fscanf(f, "%f", &a);
  int next = fgetc(f);
  return r * 1000 + next;
}

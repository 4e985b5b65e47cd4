/* The one-line wrapper a user writes to test a header-only library (its
 * directory given with -I). */
#include "clamp_lib.h"

int clamp_byte(int x) { return clamp_to(x, 0, 255); }

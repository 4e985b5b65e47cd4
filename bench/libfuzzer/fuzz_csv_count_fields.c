/* csv_count_fields(line, sep): the first byte is sep (',' if it is NUL or
   '"', which the contract excludes), the rest is line, NUL-terminated. */
#include "fuzz_common.h"
#include "token.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char sep = (char)fz_byte(&data, &size);
    char *line;
    if (sep == '\0' || sep == '"')
        sep = ',';
    line = fz_str(data, size);
    FZ_SINK(csv_count_fields(line, sep));
    free(line);
    return 0;
}

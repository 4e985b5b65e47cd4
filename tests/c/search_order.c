/* search_order.c: a record whose first byte selects how its payload is
 * weighed, then a loop over the payload classifies each byte (the shape
 * of a decoder or a tokenizer). Depth-first, a search spends itself on
 * the payload's combinations (3^k of them at bound k) before it flips the
 * first byte's decisions; new branches first, it takes those early.
 * Used by crates/cli/tests/search_order.rs. */

int weigh_record(const unsigned char *rec, unsigned len)
{
    int scale;
    if (len < 1)
        return -1;
    if (rec[0] == 'A')
        scale = 1;
    else if (rec[0] == 'B')
        scale = -1;
    else if (rec[0] == 'C')
        scale = 2;
    else
        scale = 0;
    int sum = 0;
    for (unsigned i = 1; i < len; i++) {
        if (rec[i] < 32)
            sum += 1;
        else if (rec[i] < 128)
            sum += 2;
        else
            sum += 3;
    }
    return sum * scale;
}

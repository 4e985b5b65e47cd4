/* The guide's tutorial (README.md, "Five minutes on your own file"):
 * the price of an item after a percentage discount, in cents. */

int discounted(int price, int percent)
{
    if (price < 0 || percent < 0 || percent > 100)
        return -1;
    return price - price * percent / 100;
}

/* What callers guarantee: prices below ten million cents. */
int price_ok(int price, int percent)
{
    return price < 10000000;
}

/* The real lookup() of lookup.c, linked with the tests natively. */
int lookup(int key)
{
    return key < 0 ? -1 : key;
}

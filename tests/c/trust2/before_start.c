/* Reads before the start of what the caller passes. */
int dash_follows_nul(const char *s)
{
    if (s[0] == '-')
        return s[-1] == 0;
    return 1;
}

int at_offset(const int *v, int i)
{
    if (i < 4)
        return v[i];
    return 0;
}

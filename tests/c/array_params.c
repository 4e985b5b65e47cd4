/* Array parameters: rows of variable length (`int a[n][m]`, `int (*a)[n]`)
 * and arrays declared with their length (`int a[3][4]`, `int a[10]`).
 * Used by crates/cli/tests/array_params.rs. */

int sum2d(int n, int m, int a[n][m])
{
    int s = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            s += a[i][j];
    return s;
}

int diag(int n, int (*a)[n])
{
    if (n == 2 && a[1][1] > a[0][0])
        return (int)sizeof a[0];
    return 0;
}

int cell(int a[3][4])
{
    if (a[1][2] > 5)
        return 1;
    return 0;
}

int head(int a[10])
{
    if (a[0] > 5)
        return 1;
    return 0;
}

/* The row length is read once, on entry: changing `m` afterwards does not
 * change the stride (C11 6.9.1p10). */
int last_of_row(int n, int m, int a[n][m])
{
    int r = n - 1;
    m = 1;
    if (n > 1 && a[r][0] == 7)
        return a[r][1];
    return -1;
}

/* An array type named by a typedef is declared with its length too. */
typedef int vec3[3];

int first_of(const vec3 v)
{
    if (v[0] > 5)
        return 1;
    return 0;
}
